import Foundation
import NIOHTTP1

/// The error of a failed GoTrue or PostgREST answer, whichever of its shapes it came in
/// (reference §A.4): GoTrue 2024-01-01 `{"code":"<code>","message"}`, GoTrue legacy
/// `{"code":<status>,"error_code":"<code>","msg"}` (and the `x-sb-error-code` header), OAuth
/// `{"error","error_description"}`, PostgREST `{"code","details","hint","message"}`.
struct SupabaseErrorBody: Sendable, Hashable {
    /// The machine-readable code: `invalid_credentials`, `PGRST202`, `23505`, `invalid_grant`, …
    var code: String?

    /// Parses an error answer; nil when the body is not a JSON object and no header names a code.
    static func parse(_ bytes: [UInt8], headers: HTTPHeaders) -> SupabaseErrorBody? {
        let header = headers.first(name: "x-sb-error-code").flatMap { $0.isEmpty ? nil : $0 }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            return header.map { SupabaseErrorBody(code: $0) }
        }
        if let code = object["error_code"] as? String, !code.isEmpty { return SupabaseErrorBody(code: code) }
        if let code = object["code"] as? String, !code.isEmpty { return SupabaseErrorBody(code: code) }
        if let header { return SupabaseErrorBody(code: header) }
        if let code = object["error"] as? String, !code.isEmpty { return SupabaseErrorBody(code: code) }
        return SupabaseErrorBody(code: nil)
    }
}
