extension LocalAPIRequest {
    /// Decodes one line (without its `\n`).
    public static func decode<Bytes: Collection<UInt8>>(line: Bytes) -> Decoded {
        decodeKeepingID(line: Array(line)).decoded
    }

    /// Decodes one line (without its `\n`) in one pass, and keeps the bytes of its `id` as
    /// they came (`null` when there is none or it is not a valid id), for the answer to echo:
    /// even an integer beyond 2^53 comes back exactly. The outer object's members go straight
    /// into the four the protocol reads (the last of a repeated name wins), without a dictionary.
    public static func decodeKeepingID(line: [UInt8]) -> (decoded: Decoded, id: [UInt8]) {
        let null: [UInt8] = Array("null".utf8)
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return (.blank, null) }
        var parser = JSONParser(bytes: line)
        var members = Members()
        do throws(JSONValue.ParseError) {
            parser.skipWhitespace()
            guard parser.index < line.count, line[parser.index] == UInt8(ascii: "{") else {
                if case .array = try parser.parseDocument() {
                    return (
                        .failure(.null, .invalidRequest("Batches are not supported: send one request per line.")), null
                    )
                }
                return (.failure(.null, .invalidRequest("A request is a JSON object.")), null)
            }
            try parser.parseMembers { key, bytes, value in members.take(key, bytes, value) }
            parser.skipWhitespace()
            guard parser.index == line.count else { throw parser.fail("unexpected data after the value") }
        } catch {
            return (.failure(.null, .parseError(error.description)), null)
        }
        var id: LocalAPIRequestID? = nil
        var idBytes = null
        if let rawID = members.id {
            guard let parsed = LocalAPIRequestID(json: rawID) else {
                return (.failure(.null, .invalidRequest("The id must be a number, a string or null.")), null)
            }
            id = parsed
            idBytes = Array(line[members.idBytes])
        }
        guard members.jsonrpc == .string("2.0") else {
            return (.failure(id ?? .null, .invalidRequest("The request needs \"jsonrpc\":\"2.0\".")), idBytes)
        }
        guard case .string(let method)? = members.method else {
            return (.failure(id ?? .null, .invalidRequest("The request needs a string \"method\".")), idBytes)
        }
        guard let id else { return (.notification, null) }
        var params: [String: JSONValue] = [:]
        if let rawParams = members.params {
            guard case .object(let object) = rawParams else {
                return (.failure(id, .invalidParams("\"params\" must be an object.")), idBytes)
            }
            params = object
        }
        return (.request(LocalAPIRequest(id: id, method: method, params: params)), idBytes)
    }

    /// The members of a request object the protocol reads; any other is ignored.
    private struct Members {
        var id: JSONValue?
        var idBytes: Range<Int> = 0..<0
        var jsonrpc: JSONValue?
        var method: JSONValue?
        var params: JSONValue?

        mutating func take(_ key: String, _ bytes: Range<Int>, _ value: JSONValue) {
            switch key {
            case "id":
                id = value
                idBytes = bytes
            case "jsonrpc": jsonrpc = value
            case "method": method = value
            case "params": params = value
            default: break
            }
        }
    }
}
