/// Which operation a backend call serves, for `State.rateLimit.operation` (PROTOCOL.md, "Rate
/// limits"): a method of the local API, or `refresh` for a token refresh, whoever asked for it.
///
/// Carried by the task, like a trace context, so that the two dozen places that call the
/// backend need not pass it along: the socket server runs each call with its method's name, the
/// maintenance jobs with theirs, and a refresh always with ``refresh``.
public enum BackendOperation {
    /// The operation of the current task; nil outside any.
    @TaskLocal public static var current: String?

    /// The daemon's token refresh (by its schedule, or for a caller that needed a fresh token).
    public static let refresh = "refresh"
}
