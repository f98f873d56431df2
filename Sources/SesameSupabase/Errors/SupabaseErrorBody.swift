import Foundation
import NIOHTTP1

/// The error of a failed GoTrue or PostgREST answer, whichever of its shapes it came in
/// (reference §A.4): GoTrue 2024-01-01 `{"code":"<code>","message"}`, GoTrue legacy
/// `{"code":<status>,"error_code":"<code>","msg"}` (and the `x-sb-error-code` header), OAuth
/// `{"error","error_description"}`, PostgREST `{"code","details","hint","message"}`.
struct SupabaseErrorBody: Sendable, Hashable {
    /// The machine-readable code: `invalid_credentials`, `PGRST202`, `23505`, `invalid_grant`, …
    var code: String?
    /// The wait GoTrue states in its message when it limits a sender ("For security purposes,
    /// you can only request this after 58 seconds."): it sends no `Retry-After`.
    var waitSeconds: Int?

    /// Parses an error answer; nil when the body is not a JSON object and no header names a code.
    static func parse(_ bytes: [UInt8], headers: HTTPHeaders) -> SupabaseErrorBody? {
        let header = headers.first(name: "x-sb-error-code").flatMap { $0.isEmpty ? nil : $0 }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any] else {
            return header.map { SupabaseErrorBody(code: $0) }
        }
        var body = SupabaseErrorBody(code: nil)
        let text = ["msg", "message", "error_description"].lazy.compactMap { object[$0] as? String }.first
        body.waitSeconds = text.flatMap(waitSeconds(in:))
        if let code = object["error_code"] as? String, !code.isEmpty {
            body.code = code
        } else if let code = object["code"] as? String, !code.isEmpty {
            body.code = code
        } else if let header {
            body.code = header
        } else if let code = object["error"] as? String, !code.isEmpty {
            body.code = code
        }
        return body
    }

    /// The `N` of "… after N seconds" (GoTrue's rate-limit message), at most a day; nil otherwise.
    static func waitSeconds(in message: String) -> Int? {
        let words = message.split(whereSeparator: { $0 == " " || $0 == "." })
        guard let index = words.firstIndex(of: "after"), index + 2 < words.count,
            words[index + 2].hasPrefix("second"), let seconds = Int(words[index + 1]), (0...86_400).contains(seconds)
        else { return nil }
        return seconds
    }
}
