import Crypto
import Foundation
import SesameCore
import SesameLocalAPI
import _CryptoExtras

/// The algorithm and parameters `accounts:batchCreate` named for the password hashes it imported
/// (as firebase-admin's `UserImportHash` sends them), so that an imported user signs in with the
/// password the hash was made from.
///
/// The algorithms whose computation is fixed by their definition are served: Firebase's own
/// `SCRYPT` (scrypt of the password with the salt and separator, N = 2^memoryCost, r = rounds,
/// p = 1; the signer key encrypted with AES-256-CTR under the first 32 bytes, zero IV — the
/// github.com/firebase/scrypt definition), `STANDARD_SCRYPT`, `PBKDF2_SHA256` and `PBKDF_SHA1`.
/// Others (`HMAC_*`, `MD5`, `SHA*`, `BCRYPT`) are kept and shown but match no password, as in
/// Google's emulator (docs/emulator.md).
struct ImportedPasswordHash: Sendable, Equatable, Codable {
    enum Algorithm: String, Sendable, Codable {
        case scrypt = "SCRYPT"
        case standardScrypt = "STANDARD_SCRYPT"
        case pbkdf2SHA256 = "PBKDF2_SHA256"
        case pbkdfSHA1 = "PBKDF_SHA1"
    }

    var algorithm: Algorithm
    var signerKey: [UInt8]? = nil
    var saltSeparator: [UInt8]? = nil
    var rounds: Int? = nil
    var memoryCost: Int? = nil
    var cpuMemCost: Int? = nil
    var blockSize: Int? = nil
    var parallelization: Int? = nil
    var derivedKeyLength: Int? = nil

    /// Refuses parameters outside what the algorithm allows (firebase-admin's own bounds, and for
    /// `STANDARD_SCRYPT` at most 256 MiB of work memory), with Identity Toolkit's codes, so a bad
    /// import is told at once and a sign-in never tries an unbounded computation.
    func check() throws(IdentityToolkitError) {
        switch algorithm {
        case .scrypt:
            guard signerKey?.isEmpty == false else { throw .invalid("INVALID_HASH_KEY") }
            guard let memoryCost, (1...14).contains(memoryCost) else { throw .invalid("INVALID_HASH_MEMORY_COST") }
            guard let rounds, (1...8).contains(rounds) else { throw .invalid("INVALID_HASH_ROUNDS") }
        case .standardScrypt:
            guard let cpuMemCost, cpuMemCost > 1, cpuMemCost & (cpuMemCost - 1) == 0 else {
                throw .invalid("INVALID_HASH_MEMORY_COST")
            }
            guard let blockSize, (1...32).contains(blockSize) else { throw .invalid("INVALID_HASH_BLOCK_SIZE") }
            guard let parallelization, (1...16).contains(parallelization) else {
                throw .invalid("INVALID_HASH_PARALLELIZATION")
            }
            guard 128 * blockSize * cpuMemCost <= 256 << 20 else { throw .invalid("INVALID_HASH_MEMORY_COST") }
            if let derivedKeyLength, !(1...128).contains(derivedKeyLength) {
                throw .invalid("INVALID_HASH_DERIVED_KEY_LENGTH")
            }
        case .pbkdf2SHA256, .pbkdfSHA1:
            guard let rounds, (1...120_000).contains(rounds) else { throw .invalid("INVALID_HASH_ROUNDS") }
        }
    }

    /// Whether `password` hashes to `hash` with `salt` under these parameters.
    func matches(password: String, hash: [UInt8], salt: [UInt8]) -> Bool {
        guard let computed = try? self.hash(password: Array(password.utf8), salt: salt, length: hash.count) else {
            return false
        }
        return computed.count == hash.count && zip(computed, hash).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }

    private func hash(password: [UInt8], salt: [UInt8], length: Int) throws -> [UInt8] {
        switch algorithm {
        case .scrypt:
            guard let signerKey, let memoryCost, let rounds, (1...14).contains(memoryCost), rounds > 0 else {
                return []
            }
            let derived = try KDF.Scrypt.deriveKey(
                from: password, salt: salt + (saltSeparator ?? []), outputByteCount: 32, rounds: 1 << memoryCost,
                blockSize: rounds, parallelism: 1)
            let nonce = try AES._CTR.Nonce(nonceBytes: [UInt8](repeating: 0, count: 16))
            return Array(try AES._CTR.encrypt(signerKey, using: derived, nonce: nonce))
        case .standardScrypt:
            guard let cpuMemCost, let blockSize, let parallelization, cpuMemCost > 1 else { return [] }
            let derived = try KDF.Scrypt.deriveKey(
                from: password, salt: salt, outputByteCount: derivedKeyLength ?? length, rounds: cpuMemCost,
                blockSize: blockSize, parallelism: parallelization)
            return derived.withUnsafeBytes { Array($0) }
        case .pbkdf2SHA256, .pbkdfSHA1:
            guard let rounds, rounds > 0, length > 0 else { return [] }
            let derived = try KDF.Insecure.PBKDF2.deriveKey(
                from: password, salt: salt, using: algorithm == .pbkdfSHA1 ? .insecureSHA1 : .sha256,
                outputByteCount: length, unsafeUncheckedRounds: rounds)
            return derived.withUnsafeBytes { Array($0) }
        }
    }
}

extension ImportedPasswordHash {
    /// The parameters of a `batchCreate` request; nil when it names no algorithm served here.
    init?(request body: BatchCreateRequest) {
        guard let name = body.hashAlgorithm?.stringValue, let algorithm = Algorithm(rawValue: name) else { return nil }
        self.init(
            algorithm: algorithm, signerKey: body.signerKey?.stringValue.flatMap(Base64URL.decode),
            saltSeparator: body.saltSeparator?.stringValue.flatMap(Base64URL.decode),
            rounds: body.rounds?.int64TextValue,
            memoryCost: body.memoryCost?.int64TextValue, cpuMemCost: body.cpuMemCost?.int64TextValue,
            blockSize: body.blockSize?.int64TextValue, parallelization: body.parallelization?.int64TextValue,
            derivedKeyLength: body.dkLen?.int64TextValue)
    }
}
