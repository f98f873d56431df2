import Crypto
import Foundation

/// The on-disk layout of a keyring file, and the step from bytes to plaintext and back.
///
/// Layout of every version so far:
///
/// ```
/// offset 0   8 bytes   magic "SESAMEKR"
/// offset 8   1 byte    format version (``currentVersion`` when written)
/// offset 9  12 bytes   AES-GCM nonce
///           n bytes    ciphertext of the payload (``PersistedState`` as JSON)
///          16 bytes    AES-GCM tag
/// ```
///
/// The 9-byte header is authenticated as associated data, so a changed version byte fails
/// decryption instead of selecting another decoder. Files written by older versions are
/// brought up to date by ``KeyringMigration``s after decryption, in order.
enum KeyringFormat {
    /// The first bytes of every keyring file.
    static let magic: [UInt8] = Array("SESAMEKR".utf8)
    /// The version this build writes.
    static let currentVersion: UInt8 = 1
    /// Bytes before the sealed box: magic plus version.
    static let headerLength = magic.count + 1
    /// The smallest possible file: header, nonce and tag around an empty ciphertext.
    static let minimumLength = headerLength + 12 + 16

    /// Why bytes could not be opened; the store words these for people.
    enum Failure: Error, Equatable {
        /// Shorter than any keyring, or not starting with the magic.
        case notAKeyring
        /// A version this build cannot read (newer than ``currentVersion``, or zero).
        case unknownVersion(UInt8)
        /// Authentication failed: wrong key, or the bytes were changed.
        case authenticationFailed
        /// A migration from an older version failed.
        case migrationFailed(name: String)
    }

    /// Seals `payload` in the current format.
    static func seal(_ payload: Data, with key: SymmetricKey) throws -> [UInt8] {
        let header = magic + [currentVersion]
        let box = try AES.GCM.seal(payload, using: key, authenticating: header)
        guard let combined = box.combined else { throw Failure.authenticationFailed }  // only nil for odd nonce sizes
        return header + Array(combined)
    }

    /// Opens a keyring file's bytes and returns the payload in the current format.
    /// - Parameter migrations: the ordered migrations to apply to older versions.
    /// - Throws: ``Failure``.
    static func open(
        _ bytes: [UInt8], with key: SymmetricKey, migrations: [KeyringMigration] = KeyringMigration.all
    ) throws(Failure) -> Data {
        guard bytes.count >= minimumLength, Array(bytes[0..<magic.count]) == magic else { throw .notAKeyring }
        let version = bytes[magic.count]
        guard version >= 1, version <= currentVersion else { throw .unknownVersion(version) }
        let payload: Data
        do {
            let box = try AES.GCM.SealedBox(combined: bytes[headerLength...])
            payload = try AES.GCM.open(box, using: key, authenticating: bytes[0..<headerLength])
        } catch {
            throw .authenticationFailed
        }
        return try KeyringMigration.apply(migrations, to: payload, from: version)
    }
}
