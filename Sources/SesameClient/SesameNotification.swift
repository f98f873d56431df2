import Foundation

/// One notification from the daemon (PROTOCOL.md, Notifications), or a change of the client's
/// own connection, as ``SesameClient/notifications`` yields them.
public struct SesameNotification: Sendable, Hashable {
    /// What happened.
    public enum Event: Sendable, Hashable {
        /// The uid, status or anonymity changed; `reason` is one of ``SesameChangeReason``'s
        /// daemon reasons.
        case authStateChanged(state: SesameState, previousUid: String?, reason: SesameChangeReason)
        /// A new ID token was obtained.
        case idTokenChanged(SesameIDTokenChange)
        /// Profile fields, providers or pending merges changed.
        case userUpdated(state: SesameState)
        case connectivityChanged(SesameConnectivity)
        /// A merge waits for a migrator (only with ``SesameClient/merges``).
        case accountMerge(SesameMerge)
        /// The daemon is stopping; the client reconnects by itself.
        case shutdown(reason: String)
        /// A sign-in flow started, changed status or ended; `state.signInPrompt` shows the open one.
        case signInFlowChanged(flow: SesameSignInFlow, state: SesameState)
        /// Managers only: a program asked for a role, or its request was answered, expired or
        /// withdrawn; the open requests.
        case accessRequestsChanged([SesameAccessRequest])
        /// Local: the connection to the daemon was lost; the client is reconnecting.
        case connectionLost(SesameClientError)
        /// Local: the client is connected (again) to this daemon instance and subscribed, so no
        /// later event is missed.
        case connected(SesameHello)
    }

    public var event: Event
    /// The daemon's `sequence`; nil for the local events.
    public var sequence: Int64?
    /// The notification exactly as a protocol line (compact JSON, no newline); nil for the
    /// local events.
    public var jsonLine: String?
    /// For ``Event/connected(_:)``: the state as of the subscription (the `subscribe` result's
    /// `state`), so a watcher can show where it starts from; nil for the other events.
    public var state: SesameState?

    public init(event: Event, sequence: Int64?, jsonLine: String?, state: SesameState? = nil) {
        self.event = event
        self.sequence = sequence
        self.jsonLine = jsonLine
        self.state = state
    }

    /// Whether the event came from the daemon (not from the client's connection handling).
    public var isFromDaemon: Bool { jsonLine != nil }
}
