extension LocalAPIRequest {
    /// Decodes one line (without its `\n`).
    public static func decode<Bytes: Collection<UInt8>>(line: Bytes) -> Decoded {
        decodeKeepingID(line: Array(line)).decoded
    }

    /// Decodes one line (without its `\n`) and keeps the bytes of its `id` as they came
    /// (`null` when there is none or it is not a valid id), for the answer to echo.
    public static func decodeKeepingID(line: [UInt8]) -> (decoded: Decoded, id: [UInt8]) {
        line.withUnsafeBytes { raw in
            let (decoded, id) = decode(line: raw)
            return (decoded, id.map { Array(raw[$0]) } ?? Array("null".utf8))
        }
    }

    /// Decodes one line (without its `\n`) in one pass, where it lies (no copy), and says where
    /// the bytes of its `id` are, for the answer to echo them as they came: even an integer
    /// beyond 2^53 comes back exactly. A nil range means the answer's id is `null` (none, or
    /// not a valid id). The outer object's members go straight into the four the protocol
    /// reads (the last of a repeated name wins), without a dictionary.
    public static func decode(line: UnsafeRawBufferPointer) -> (decoded: Decoded, id: Range<Int>?) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) { return (.blank, nil) }
        var parser = JSONParser(bytes: line)
        var members = Members()
        do throws(JSONValue.ParseError) {
            parser.skipWhitespace()
            guard parser.index < line.count, line[parser.index] == UInt8(ascii: "{") else {
                if case .array = try parser.parseDocument() {
                    return (
                        .failure(.null, .invalidRequest("Batches are not supported: send one request per line.")), nil
                    )
                }
                return (.failure(.null, .invalidRequest("A request is a JSON object.")), nil)
            }
            try members.read(&parser)
            parser.skipWhitespace()
            guard parser.index == line.count else { throw parser.fail("unexpected data after the value") }
        } catch {
            return (.failure(.null, .parseError(error.description)), nil)
        }
        var id: LocalAPIRequestID? = nil
        var idBytes: Range<Int>? = nil
        if let rawID = members.id {
            guard let parsed = LocalAPIRequestID(json: rawID) else {
                return (.failure(.null, .invalidRequest("The id must be a number, a string or null.")), nil)
            }
            id = parsed
            if parsed != .null { idBytes = members.idBytes }
        }
        guard members.jsonrpc == .string("2.0") else {
            return (.failure(id ?? .null, .invalidRequest("The request needs \"jsonrpc\":\"2.0\".")), idBytes)
        }
        guard case .string(let method)? = members.method else {
            return (.failure(id ?? .null, .invalidRequest("The request needs a string \"method\".")), idBytes)
        }
        guard let id else { return (.notification, nil) }
        guard let params = members.params else {
            return (.failure(id, .invalidParams("\"params\" must be an object.")), idBytes)
        }
        return (.request(LocalAPIRequest(id: id, method: method, params: params)), idBytes)
    }

    /// The members of a request object the protocol reads; any other is ignored.
    private struct Members {
        var id: JSONValue?
        var idBytes: Range<Int> = 0..<0
        var jsonrpc: JSONValue?
        var method: JSONValue?
        /// nil when `params` is there and not an object.
        var params: LocalAPIParams? = LocalAPIParams([:])

        /// Reads the object at the parser's `{`: names are matched as bytes, `params` goes into
        /// its list of members without a dictionary, and the last of a repeated name wins.
        mutating func read(_ parser: inout JSONParser) throws(JSONValue.ParseError) {
            try parser.enterObject()
            var first = true
            while let name = try parser.nextMemberName(first: first) {
                first = false
                if name.is("id") {
                    let start = parser.index
                    id = try parser.parseValue()
                    idBytes = start..<parser.index
                } else if name.is("jsonrpc") {
                    jsonrpc = try parser.parseValue()
                } else if name.is("method") {
                    method = try parser.parseValue()
                } else if name.is("params") {
                    params = try Self.readParams(&parser)
                } else {
                    _ = try parser.parseValue()
                }
            }
        }

        private static func readParams(_ parser: inout JSONParser) throws(JSONValue.ParseError) -> LocalAPIParams? {
            guard parser.index < parser.bytes.count, parser.bytes[parser.index] == UInt8(ascii: "{") else {
                _ = try parser.parseValue()
                return nil
            }
            var members: [LocalAPIParams.Member] = []
            try parser.enterObject()
            var first = true
            while let name = try parser.nextMemberName(first: first) {
                first = false
                members.append(LocalAPIParams.Member(name: name.string, value: try parser.parseValue()))
            }
            return LocalAPIParams(members: members)
        }
    }
}
