import Foundation
import SesameCore

/// The interactive sign-in flows (PROTOCOL.md, "Sign-in flows"): the one open flow, its
/// secrets, the end of its child task, who waits for it, the flows that ended recently and the
/// browser callbacks already spent.
///
/// Owned by ``SessionService`` and used only inside it. Everything here lives in memory only:
/// a restart cancels the flows, and nothing of a flow ever reaches the keyring. The secrets
/// (device code, `state`, backend session id or PKCE verifier, the callback URLs) are kept
/// apart from the public ``SignInFlow``, which is all that clients, events and logs see.
struct SignInFlows {
    /// What only the daemon may know about the open flow.
    enum Secret {
        case device(DeviceCode)
        case browser(BrowserSignInStart)
    }

    /// How a flow ended: the merge its sign-in recorded, or its error.
    typealias Outcome = Result<Merge?, AuthError>

    /// Someone in `awaitSignIn`: told the outcome once.
    struct Waiter {
        let continuation: AsyncStream<Outcome>.Continuation
    }

    struct Open {
        var flow: SignInFlow
        let secret: Secret
        /// Ends the flow's child task (the poll of a device flow, the expiry of a browser flow).
        let ending = EndSignal()
        var waiters: [UInt64: Waiter] = [:]
    }

    struct Ended {
        let flow: SignInFlow
        let outcome: Outcome
    }

    /// The identity providers' device endpoints; nil when none is configured.
    let deviceAuthorization: (any DeviceAuthorizationClient)?
    /// Waiting on the service's clock (poll intervals, expiry, `awaitSignIn` timeouts).
    let sleeper: any Sleeper
    private(set) var open: Open?
    private var ended: [String: Ended] = [:]
    private var endedOrder: [String] = []
    /// Callback URLs given to `completeSignIn` whose code was spent (a replay changes nothing).
    private var spentCallbacks: Set<String> = []
    private var nextWaiter: UInt64 = 0

    /// How many ended flows are remembered, so `awaitSignIn` and `completeSignIn` on a flow that
    /// just ended answer with its outcome rather than "unknown".
    static let endedKept = 16

    init(deviceAuthorization: (any DeviceAuthorizationClient)?, sleeper: any Sleeper) {
        self.deviceAuthorization = deviceAuthorization
        self.sleeper = sleeper
    }

    /// What `State.signInPrompt` shows: the open flow while it is pending.
    var prompt: SignInPrompt? {
        guard let open, open.flow.status == .pending else { return nil }
        return SignInPrompt(open.flow)
    }

    /// The open flow with this id.
    func openFlow(_ flowId: String) -> Open? {
        guard let open, open.flow.flowId == flowId else { return nil }
        return open
    }

    func isOpen(_ flowId: String) -> Bool { openFlow(flowId) != nil }

    func endedFlow(_ flowId: String) -> Ended? { ended[flowId] }

    /// Makes `flow` the open one. The caller has ended the previous one.
    mutating func begin(_ flow: SignInFlow, secret: Secret) {
        precondition(open == nil, "end the open flow first")
        open = Open(flow: flow, secret: secret)
    }

    /// Ends the open flow `flowId` with `status`: returns the flow as it ended and its waiters,
    /// or nil when that flow is not open. Its child task is ended.
    mutating func end(
        _ flowId: String, status: SignInFlow.Status, outcome: Outcome
    ) -> (flow: SignInFlow, waiters: [Waiter])? {
        guard var closing = openFlow(flowId) else { return nil }
        open = nil
        closing.flow.status = status
        closing.ending.fire()
        ended[flowId] = Ended(flow: closing.flow, outcome: outcome)
        endedOrder.append(flowId)
        if endedOrder.count > Self.endedKept { ended[endedOrder.removeFirst()] = nil }
        return (closing.flow, Array(closing.waiters.values))
    }

    /// A new waiter's id (taken before it waits, so a cancelled caller can be found again).
    mutating func newWaiterId() -> UInt64 {
        nextWaiter += 1
        return nextWaiter
    }

    /// Adds a waiter to the open flow `flowId` (nothing when it is not open).
    mutating func addWaiter(_ id: UInt64, to flowId: String, _ continuation: AsyncStream<Outcome>.Continuation) {
        guard isOpen(flowId) else { return }
        open?.waiters[id] = Waiter(continuation: continuation)
    }

    /// Removes a waiter that was answered, timed out or went away (the flow goes on).
    mutating func removeWaiter(_ id: UInt64) {
        open?.waiters[id] = nil
    }

    func isSpent(_ callbackUrl: String) -> Bool { spentCallbacks.contains(callbackUrl) }
    mutating func spend(_ callbackUrl: String) { spentCallbacks.insert(callbackUrl) }
    /// The backend could not be reached with it: the code was not spent, the person may retry.
    mutating func unspend(_ callbackUrl: String) { spentCallbacks.remove(callbackUrl) }

    /// Drops everything (shutdown): returns the open flow's waiters, its child task ended.
    mutating func abandon() -> [Waiter] {
        guard let closing = open else { return [] }
        open = nil
        closing.ending.fire()
        return Array(closing.waiters.values)
    }
}

@available(*, unavailable)
extension SignInFlows: Sendable {}

extension SignInFlows.Waiter {
    /// Answers the waiter (once).
    func answer(_ outcome: SignInFlows.Outcome) {
        continuation.yield(outcome)
        continuation.finish()
    }
}
