/// A response line whose bytes are fixed but for the request's `id`: `before`, the id as the
/// request gave it, `after`. An answer that only changes with the session is serialised once
/// and sent to every request with just its id spliced in.
///
///     {"id":  7  ,"jsonrpc":"2.0","result":{…}}
///     └before┘ id └────────── after ──────────┘
///
/// The bytes are exactly what ``LocalAPIMessage/encoded()`` writes (members sorted by name:
/// `error`, `id`, `jsonrpc`, `result`), with the id's own bytes in place of its re-encoding.
public struct SplicedResponse: Sendable, Hashable {
    public let before: [UInt8]
    public let after: [UInt8]

    /// Bytes of the line without the id and without the trailing newline.
    public var count: Int { before.count + after.count }

    public static func success(_ result: JSONValue) -> SplicedResponse {
        var after = Array(#","jsonrpc":"2.0","result":"#.utf8)
        result.write(into: &after)
        after.append(UInt8(ascii: "}"))
        return SplicedResponse(before: Array(#"{"id":"#.utf8), after: after)
    }

    public static func failure(_ error: LocalAPIError) -> SplicedResponse {
        var before = Array(#"{"error":"#.utf8)
        error.json.write(into: &before)
        before.append(contentsOf: #","id":"#.utf8)
        return SplicedResponse(before: before, after: Array(#","jsonrpc":"2.0"}"#.utf8))
    }

    /// The whole line (no trailing newline) for a request whose id was `id` on the wire.
    public func line(id: [UInt8]) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(count + id.count)
        line.append(contentsOf: before)
        line.append(contentsOf: id)
        line.append(contentsOf: after)
        return line
    }
}
