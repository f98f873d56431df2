/// The error body of a failed GoTrue or PostgREST answer, whichever of its shapes it came in
/// (reference §A.4): GoTrue 2024-01-01 `{"code":"<code>","message"}`, GoTrue legacy
/// `{"code":<status>,"error_code":"<code>","msg"}`, OAuth `{"error","error_description"}`,
/// PostgREST `{"code","details","hint","message"}`. Each field is nil unless it is a non-empty
/// string (the legacy shape's `code` is the HTTP status, a number); a body that is not a JSON
/// object does not decode.
struct SupabaseErrorBody: Decodable, Sendable, Hashable {
    var errorCode, code, error, msg, message, errorDescription: String?

    enum CodingKeys: String, CodingKey {
        case errorCode = "error_code", code, error, msg, message, errorDescription = "error_description"
    }

    init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        func text(_ key: CodingKeys) -> String? {
            (try? c.decodeIfPresent(String.self, forKey: key)).flatMap { $0?.isEmpty == false ? $0 : nil }
        }
        errorCode = text(.errorCode)
        code = text(.code)
        error = text(.error)
        msg = text(.msg)
        message = text(.message)
        errorDescription = text(.errorDescription)
    }

    /// The machine-readable code (`invalid_credentials`, `PGRST202`, `23505`, `invalid_grant`,
    /// …), with the `x-sb-error-code` header's code ranked below the body's own.
    func code(header: String?) -> String? {
        errorCode ?? code ?? header ?? error
    }

    /// The wait GoTrue states in its message when it limits a sender ("For security purposes,
    /// you can only request this after 58 seconds."): it sends no `Retry-After`.
    var waitSeconds: Int? {
        (msg ?? message ?? errorDescription).flatMap(Self.waitSeconds(in:))
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
