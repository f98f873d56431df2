/// One state change for the service manager, as sd_notify(3) spells it.
public enum SystemdNotification: Sendable, Hashable {
    /// `READY=1`: start-up is finished (the keyring is loaded and the socket bound or adopted).
    case ready
    /// `STATUS=…`: a one-line status for people; newlines are replaced by spaces.
    case status(String)
    /// `STOPPING=1`: graceful shutdown has begun.
    case stopping
    /// `WATCHDOG=1`: the service is alive; send every ``SystemdNotifier/watchdogInterval``.
    case watchdog
    /// `RELOADING=1`: the configuration is being reloaded.
    case reloading

    /// The `KEY=value` assignment of this notification.
    public var assignment: String {
        switch self {
        case .ready: "READY=1"
        case .status(let text):
            "STATUS=" + String(text.map { $0.isNewline ? " " : $0 })
        case .stopping: "STOPPING=1"
        case .watchdog: "WATCHDOG=1"
        case .reloading: "RELOADING=1"
        }
    }
}
