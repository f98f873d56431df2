#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How many connections the daemon can hold without running out of file descriptors: its own
/// files (keyring, its lock and temporary file, the journal, the listening socket, the event
/// loop's) and the backend's HTTPS connections need `reserve` of them, always.
public struct DescriptorBudget: Sendable, Equatable {
    /// Descriptors kept for everything but client connections.
    public static let reserve = 128

    /// The soft limit of open files (RLIMIT_NOFILE) after ``raiseSoftLimit()``.
    public var limit: Int
    /// `max_connections` as configured.
    public var configured: Int

    public init(limit: Int, configured: Int) {
        self.limit = limit
        self.configured = configured
    }

    /// The connections the daemon accepts: `configured`, or fewer when the limit leaves less
    /// than that beside the reserve (then at least 1).
    public var effectiveMaximum: Int {
        min(configured, max(1, limit - Self.reserve))
    }

    /// Whether `configured` had to be lowered.
    public var isLowered: Bool { effectiveMaximum < configured }

    /// Raises the soft limit of open files to the hard limit, as systemd advises daemons to do
    /// (its default soft limit, 1,024, is kept low for programs that use select()); returns
    /// the soft limit then in force. A refused raise (the unit's seccomp filter) keeps the old one.
    public static func raiseSoftLimit() -> Int {
        var limits = rlimit()
        guard getrlimit(Self.resource, &limits) == 0 else { return 1024 }
        if limits.rlim_cur < limits.rlim_max {
            var raised = limits
            raised.rlim_cur = limits.rlim_max
            if setrlimit(Self.resource, &raised) == 0 { limits = raised }
        }
        return limits.rlim_cur >= rlim_t(Int.max) ? Int.max : Int(limits.rlim_cur)
    }

    #if canImport(Glibc)
    private static var resource: __rlimit_resource_t { __rlimit_resource_t(UInt32(RLIMIT_NOFILE.rawValue)) }
    #else
    private static var resource: Int32 { RLIMIT_NOFILE }
    #endif
}
