extension LocalAPIRequest {
    /// Decodes one line (without its `\n`).
    public static func decode<Bytes: Collection<UInt8>>(line: Bytes) -> Decoded {
        decodeKeepingID(line: Array(line)).decoded
    }

    /// Decodes one line (without its `\n`) in one pass, and keeps the bytes of its `id` as
    /// they came (`null` when there is none or it is not a valid id), for the answer to echo.
    public static func decodeKeepingID(line: [UInt8]) -> (decoded: Decoded, id: [UInt8]) {
        let null: [UInt8] = Array("null".utf8)
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return (.blank, null) }
        var parser = JSONParser(bytes: line)
        let value: JSONValue
        do {
            value = try parser.parseDocument()
        } catch {
            return (.failure(.null, .parseError(error.description)), null)
        }
        guard case .object(let members) = value else {
            if case .array = value {
                return (.failure(.null, .invalidRequest("Batches are not supported: send one request per line.")), null)
            }
            return (.failure(.null, .invalidRequest("A request is a JSON object.")), null)
        }
        var id: LocalAPIRequestID? = nil
        var idBytes = null
        if let rawID = members["id"] {
            guard let parsed = LocalAPIRequestID(json: rawID) else {
                return (.failure(.null, .invalidRequest("The id must be a number, a string or null.")), null)
            }
            id = parsed
            if let span = parser.topLevelIDBytes { idBytes = Array(line[span]) }
        }
        guard members["jsonrpc"] == .string("2.0") else {
            return (.failure(id ?? .null, .invalidRequest("The request needs \"jsonrpc\":\"2.0\".")), idBytes)
        }
        guard case .string(let method)? = members["method"] else {
            return (.failure(id ?? .null, .invalidRequest("The request needs a string \"method\".")), idBytes)
        }
        guard let id else { return (.notification, null) }
        var params: [String: JSONValue] = [:]
        if let rawParams = members["params"] {
            guard case .object(let object) = rawParams else {
                return (.failure(id, .invalidParams("\"params\" must be an object.")), idBytes)
            }
            params = object
        }
        return (.request(LocalAPIRequest(id: id, method: method, params: params)), idBytes)
    }
}
