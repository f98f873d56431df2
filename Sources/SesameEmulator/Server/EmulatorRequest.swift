/// One HTTP request as the emulator's endpoints see it: already read, body capped.
struct EmulatorRequest: Sendable {
    var method: String
    /// The percent-decoded path, e.g. `/identitytoolkit.googleapis.com/v1/accounts:signUp`.
    var path: String
    /// Query parameters, decoded; a repeated name keeps the first value.
    var query: [String: String]
    /// Header fields with lower-cased names; repeated fields joined with `, `.
    var headers: [String: String]
    var body: [UInt8]

    func header(_ name: String) -> String? { headers[name.lowercased()] }
}
