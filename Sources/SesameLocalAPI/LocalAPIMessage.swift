/// A line the daemon sends: a response to a request, or a notification.
public enum LocalAPIMessage: Sendable, Hashable {
    case success(id: LocalAPIRequestID, result: JSONValue)
    case failure(id: LocalAPIRequestID, error: LocalAPIError)
    case notification(method: String, params: JSONValue)

    /// The message as one line of JSON, without the trailing newline.
    public func encoded() -> [UInt8] {
        json.serialized()
    }

    public var json: JSONValue {
        switch self {
        case .success(let id, let result):
            .object(["jsonrpc": "2.0", "id": id.json, "result": result])
        case .failure(let id, let error):
            .object(["jsonrpc": "2.0", "id": id.json, "error": error.json])
        case .notification(let method, let params):
            .object(["jsonrpc": "2.0", "method": .string(method), "params": params])
        }
    }

    /// Reads a line the daemon sent (client side).
    /// - Throws: a description of what is wrong with the line.
    public static func decode<Bytes: Collection<UInt8>>(line: Bytes) throws(LocalAPIError) -> LocalAPIMessage {
        let value: JSONValue
        do {
            value = try JSONValue.parse(line)
        } catch {
            throw .parseError(error.description)
        }
        guard case .object(let members) = value, members["jsonrpc"] == .string("2.0") else {
            throw .invalidRequest("The daemon sent a line that is not a JSON-RPC 2.0 message.")
        }
        if let method = members["method"]?.stringValue, members["id"] == nil {
            return .notification(method: method, params: members["params"] ?? .object([:]))
        }
        guard let rawID = members["id"], let id = LocalAPIRequestID(json: rawID) else {
            throw .invalidRequest("The daemon sent a response without a valid id.")
        }
        if let result = members["result"] { return .success(id: id, result: result) }
        if let rawError = members["error"], let error = LocalAPIError(json: rawError) {
            return .failure(id: id, error: error)
        }
        throw .invalidRequest("The daemon sent a response with neither result nor error.")
    }
}
