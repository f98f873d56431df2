import Foundation

extension SupabaseSigningKey {
    /// Where a data or export directory keeps the key, beside `supabase_export/state.json`.
    static let path = "supabase_export/signing_key.json"

    /// The key to sign with at start: the one saved in `directory` when it is for `algorithm`,
    /// else a new one (`nil` for `hs256`). A key of another algorithm is replaced, as a hosted
    /// project rotating to a new key type.
    /// - Throws: ``SesameEmulatorError`` when the saved key cannot be read.
    static func load(_ algorithm: SupabaseSigningAlgorithm, from directory: String?) throws -> SupabaseSigningKey? {
        guard algorithm != .hs256 else { return nil }
        if let directory {
            let url = URL(fileURLWithPath: directory).appendingPathComponent(path)
            if FileManager.default.fileExists(atPath: url.path) {
                let saved: SupabaseSigningKey
                do {
                    saved = try JSONDecoder().decode(SupabaseSigningKey.self, from: Data(contentsOf: url))
                } catch {
                    throw SesameEmulatorError("cannot read \(url.path): not a saved signing key")
                }
                if saved.algorithm == algorithm, saved.publicJWK != nil { return saved }
            }
        }
        return generate(algorithm)
    }
}
