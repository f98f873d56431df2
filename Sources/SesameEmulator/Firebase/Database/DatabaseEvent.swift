import SesameLocalAPI

/// One server-sent event of a streaming `GET` (`Accept: text/event-stream`), as RTDB sends them.
enum DatabaseEvent: Sendable, Equatable {
    /// The value at `path` (relative to the listened location) is now `data`.
    case put(path: DatabasePath, data: JSONValue)
    /// The children of `data` (paths relative to `path`) were replaced.
    case patch(path: DatabasePath, data: JSONValue)
    /// Sent when nothing else was for a while, so proxies and clients keep the stream open.
    case keepAlive
    /// The rules no longer let the listener read its location; the stream ends after it.
    case cancel

    /// The event on the wire: `event:` and `data:` lines and a blank line.
    var text: String {
        switch self {
        case .put(let path, let data): "event: put\ndata: \(Self.payload(path, data))\n\n"
        case .patch(let path, let data): "event: patch\ndata: \(Self.payload(path, data))\n\n"
        case .keepAlive: "event: keep-alive\ndata: null\n\n"
        case .cancel: "event: cancel\ndata: null\n\n"
        }
    }

    private static func payload(_ path: DatabasePath, _ data: JSONValue) -> String {
        (["path": .string(path.description), "data": DatabaseValue.presentation(data)] as JSONValue).jsonString
    }
}
