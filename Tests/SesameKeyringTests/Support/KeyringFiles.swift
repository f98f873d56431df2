import Crypto
import Foundation

/// Builds keyring files by hand, independently of the store, to test the format from outside.
enum KeyringFiles {
    static let magic = Array("SESAMEKR".utf8)

    /// A version-`version` file sealing `payload` with `key`, header authenticated.
    static func sealed(_ payload: [UInt8], key: SymmetricKey, version: UInt8 = 1) throws -> [UInt8] {
        let header = magic + [version]
        let box = try AES.GCM.seal(payload, using: key, authenticating: header)
        return header + Array(box.combined!)
    }

    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String(format: "%02x", $0) }.joined()
    }

    static func randomKeyBytes() -> [UInt8] {
        (0..<32).map { _ in UInt8.random(in: .min ... .max) }
    }
}
