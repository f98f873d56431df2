/// Identifies a listener added with
/// ``SesameClient/addStateDidChangeListener(_:)``; pass it to
/// ``SesameClient/removeStateDidChangeListener(_:)``.
public struct ListenerHandle: Sendable, Hashable {
    let id: UInt64
}
