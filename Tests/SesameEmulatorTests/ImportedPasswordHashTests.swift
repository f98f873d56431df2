import Foundation
import SesameCore
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Users imported with password hashes sign in with their passwords (issue 33): the hashes are
/// published vectors, not computed by the emulator's code — Firebase's modified scrypt from
/// firebase-admin-python's integration/test_auth.py (`test_import_users_with_password`), scrypt
/// from RFC 7914 §12, PBKDF2-HMAC-SHA256 from RFC 7914 §11 and PBKDF2-HMAC-SHA1 from RFC 6070.
@Suite("User import with password hashes (accounts:batchCreate)")
struct ImportedPasswordHashTests {
    /// Bytes as firebase-admin sends them: URL-safe base64 with padding.
    static func b64(_ bytes: [UInt8]) -> JSONValue {
        .string(
            Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_"))
    }

    static func b64(hex: String) -> JSONValue {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex {
            let next = hex.index(index, offsetBy: 2)
            bytes.append(UInt8(hex[index..<next], radix: 16)!)
            index = next
        }
        return b64(bytes)
    }

    static func b64(standard text: String) -> JSONValue { b64(Array(Data(base64Encoded: text)!)) }

    func importAndSignIn(
        _ emu: TestEmulator, _ parameters: [String: JSONValue], hash: JSONValue, salt: JSONValue,
        password: String, wrong: String = "not-the-password"
    ) async throws {
        var body = parameters
        body["users"] = [["localId": "hashed", "email": "hashed@example.com", "passwordHash": hash, "salt": salt]]
        let imported = try await emu.admin("accounts:batchCreate", .object(body))
        #expect(imported.status == 200 && imported.json["error"] == [], "\(imported.json.jsonString)")
        let refused = try await emu.auth(
            "accounts:signInWithPassword", ["email": "hashed@example.com", "password": .string(wrong)])
        #expect(refused.errorMessage == "INVALID_PASSWORD")
        let signedIn = try await emu.auth(
            "accounts:signInWithPassword",
            ["email": "hashed@example.com", "password": .string(password), "returnSecureToken": true])
        #expect(signedIn.status == 200, "\(signedIn.json.jsonString)")
        #expect(TestEmulator.claims(signedIn.json["idToken"])["sub"] == "hashed")
        // Rehashed at the first sign-in, as Firebase does: the emulator's own form from then on.
        let lookup = try await emu.admin("accounts:lookup", ["localId": ["hashed"]])
        #expect(
            lookup.json["users"]?.arrayValue?.first?["passwordHash"]?.stringValue?.hasSuffix(":password=\(password)")
                == true)
    }

    @Test("SCRYPT (Firebase's own): firebase-admin's integration vector signs in with 'password'")
    func firebaseScrypt() async throws {
        try await TestEmulator.with { emu in
            let parameters: [String: JSONValue] = [
                "hashAlgorithm": "SCRYPT", "rounds": 8, "memoryCost": 14,
                "signerKey": Self.b64(
                    standard:
                        "jxspr8Ki0RYycVU8zykbdLGjFQ3McFUH0uiiTvC8pVMXAn210wjLNmdZJzxUECKbm0QsEmYUSDzZvpjeJ9WmXA=="),
                "saltSeparator": Self.b64(standard: "Bw=="),
            ]
            try await importAndSignIn(
                emu, parameters,
                hash: Self.b64(
                    standard:
                        "V358E8LdWJXAO7muq0CufVpEOXaj8aFiC7T/rcaGieN04q/ZPJ08WhJEHGjj9lz/2TT+/86N5VjVoc5DdBhBiw=="),
                salt: Self.b64(Array("NaCl".utf8)), password: "password")
        }
    }

    @Test("STANDARD_SCRYPT: RFC 7914's N=1024, r=8, p=16 vector")
    func standardScrypt() async throws {
        try await TestEmulator.with { emu in
            let parameters: [String: JSONValue] = [
                "hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1024, "blockSize": 8, "parallelization": 16,
                "dkLen": 64,
            ]
            try await importAndSignIn(
                emu, parameters,
                hash: Self.b64(
                    hex:
                        "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b3731622eaf30d92e22a3886ff109279d9830dac727afb94a83ee6d8360cbdfa2cc0640"
                ),
                salt: Self.b64(Array("NaCl".utf8)), password: "password")
        }
    }

    @Test("PBKDF2_SHA256 (RFC 7914 §11) and PBKDF_SHA1 (RFC 6070)")
    func pbkdf2() async throws {
        try await TestEmulator.with { emu in
            try await importAndSignIn(
                emu, ["hashAlgorithm": "PBKDF2_SHA256", "rounds": 1],
                hash: Self.b64(
                    hex:
                        "55ac046e56e3089fec1691c22544b605f94185216dde0465e68b9d57c20dacbc49ca9cccf179b645991664b39d77ef317c71b845b1e30bd509112041d3a19783"
                ),
                salt: Self.b64(Array("salt".utf8)), password: "passwd")
        }
        try await TestEmulator.with { emu in
            try await importAndSignIn(
                emu, ["hashAlgorithm": "PBKDF_SHA1", "rounds": 2],
                hash: Self.b64(hex: "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
                salt: Self.b64(Array("salt".utf8)), password: "password")
        }
    }

    @Test("an imported hash's algorithm is kept in an export: the user signs in after an import of it")
    func theAlgorithmOutlivesAnExport() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("sesame-hash-\(UUID())").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try await TestEmulator.with { emu in
            let body: JSONValue = [
                "hashAlgorithm": "PBKDF_SHA1", "rounds": 2,
                "users": [
                    [
                        "localId": "kept", "email": "kept@example.com", "salt": Self.b64(Array("salt".utf8)),
                        "passwordHash": Self.b64(hex: "ea6c014dc72d6f8ccd1ed92ace1d41f0d8de8957"),
                    ]
                ],
            ]
            #expect(try await emu.admin("accounts:batchCreate", body).json["error"] == [])
            try await emu.emulator.export(to: directory)
        }
        try await TestEmulator.with(importDirectory: directory) { emu in
            let answer = try await emu.auth(
                "accounts:signInWithPassword", ["email": "kept@example.com", "password": "password"])
            #expect(answer.status == 200, "\(answer.json.jsonString)")
            // Not shown where the Admin SDKs read accounts (only the export file keeps it).
            let lookup = try await emu.admin("accounts:lookup", ["localId": ["kept"]])
            #expect(lookup.json.jsonString.contains("sesameImportedHashAlgorithm") == false)
        }
    }

    @Test("parameters past the algorithm's bounds are refused with Identity Toolkit's codes, before any hashing")
    func outOfBoundsParameters() async throws {
        try await TestEmulator.with { emu in
            let user: JSONValue = [
                ["localId": "bounded", "email": "bounded@example.com", "passwordHash": "AAAA", "salt": "AAAA"]
            ]
            let cases: [(JSONValue, String)] = [
                // 2^30 blocks of 1 KiB would need a terabyte at the first sign-in.
                (
                    [
                        "hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1_073_741_824, "blockSize": 8,
                        "parallelization": 1,
                    ], "INVALID_HASH_MEMORY_COST"
                ),
                (
                    ["hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1000, "blockSize": 8, "parallelization": 1],
                    "INVALID_HASH_MEMORY_COST"
                ),
                (
                    ["hashAlgorithm": "STANDARD_SCRYPT", "cpuMemCost": 1024, "blockSize": 64, "parallelization": 1],
                    "INVALID_HASH_BLOCK_SIZE"
                ),
                (
                    ["hashAlgorithm": "SCRYPT", "signerKey": "c2lnbmVy", "rounds": 8, "memoryCost": 20],
                    "INVALID_HASH_MEMORY_COST"
                ),
                (["hashAlgorithm": "SCRYPT", "rounds": 8, "memoryCost": 14], "INVALID_HASH_KEY"),
                (["hashAlgorithm": "PBKDF2_SHA256", "rounds": 500_000], "INVALID_HASH_ROUNDS"),
            ]
            for (parameters, code) in cases {
                guard case .object(var body) = parameters else { continue }
                body["users"] = user
                let answer = try await emu.admin("accounts:batchCreate", .object(body))
                #expect(answer.status == 400)
                #expect(answer.errorMessage == code, "\(parameters.jsonString)")
            }
            let lookup = try await emu.admin("accounts:lookup", ["localId": ["bounded"]])
            #expect(lookup.json["users"] == nil)
        }
    }
}
