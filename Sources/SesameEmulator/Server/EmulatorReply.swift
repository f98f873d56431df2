/// One HTTP answer from an endpoint. `body == nil` means no body (204, 303…).
struct EmulatorReply: Sendable {
    var status: Int
    var headers: [(String, String)] = []
    var body: [UInt8]?

    /// A JSON answer.
    static func json(_ value: JSON, status: Int = 200, headers: [(String, String)] = []) -> EmulatorReply {
        EmulatorReply(
            status: status, headers: [("Content-Type", "application/json; charset=utf-8")] + headers,
            body: value.serializedBytes())
    }
}
