/// What a connection reports to its reader, in order.
enum ConnectionEvent: Sendable {
    /// One line, without its `\n`.
    case line([UInt8])
    /// The connection is gone; `detail` says why when it was an error.
    case closed(detail: String?)
}
