import Foundation
import NIOConcurrencyHelpers
import SesameCore
import SesameLocalAPI
import SesameService

@testable import SesameSocketServer

/// The session service behind the embedded connection tests: an anonymous session whose token
/// stays valid an hour, published to the hub as the real service publishes; every call that
/// reaches it is answered as a token refresh (a new token, published first), and the test can
/// hold those calls and release them. No backend, no actor: what the connection does is all
/// there is to see.
final class StubLocalAPIService: LocalAPIService {
    let backendName = "stub"
    let now: @Sendable () -> Date = { Date() }
    let calendarOffset: @Sendable () -> TimeInterval = { 0 }

    private struct State {
        var sink: (@Sendable (SessionEvent) -> Void)?
        var sequence: Int64 = 1
        var holding = false
        var held: [CheckedContinuation<Void, Never>] = []
        var refreshes = 0
    }

    private let state = NIOLockedValueBox(State())
    private let uid = "stub-anonymous-uid"

    func publish(to sink: @escaping @Sendable (SessionEvent) -> Void) async {
        let event = state.withLockedValue { state in
            state.sink = sink
            return self.event(.snapshot, sequence: state.sequence, refresh: state.refreshes)
        }
        sink(event)
    }

    func announceShutdown(reason: String) async {
        let (event, sink) = state.withLockedValue { state in
            (self.event(.shutdown(reason: reason), sequence: state.sequence, refresh: state.refreshes), state.sink)
        }
        sink?(event)
    }

    func execute(_ call: LocalAPICall, method: LocalAPIMethod) async -> SplicedResponse {
        await withCheckedContinuation { (resume: CheckedContinuation<Void, Never>) in
            let holding = state.withLockedValue { state in
                if state.holding { state.held.append(resume) }
                return state.holding
            }
            if !holding { resume.resume() }
        }
        let token = refresh()
        return .success(LocalAPIDispatcher.tokenJSON(token, uid: uid))
    }

    /// A new token, published as `idTokenChanged` before this returns.
    @discardableResult
    func refresh() -> IDToken {
        let (event, sink) = state.withLockedValue { state in
            state.refreshes += 1
            state.sequence += 1
            let kind = SessionEvent.Kind.idTokenChanged(uid: uid, expiresAt: Date().addingTimeInterval(3600))
            return (self.event(kind, sequence: state.sequence, refresh: state.refreshes), state.sink)
        }
        sink?(event)
        return event.currentToken!
    }

    /// Calls that arrive from now on wait until ``releaseCalls()``.
    func holdCalls() { state.withLockedValue { $0.holding = true } }

    /// How many calls wait.
    var heldCalls: Int { state.withLockedValue { $0.held.count } }

    /// Lets every waiting call, and those to come, go on.
    func releaseCalls() {
        let held = state.withLockedValue { state in
            state.holding = false
            defer { state.held = [] }
            return state.held
        }
        for call in held { call.resume() }
    }

    private func event(_ kind: SessionEvent.Kind, sequence: Int64, refresh: Int) -> SessionEvent {
        let issued = Date()
        let token = IDToken(
            rawValue: "stub.token.\(refresh)", expiresAt: issued.addingTimeInterval(3600), issuedAt: issued,
            signInProvider: "anonymous")
        let state = AuthState(
            status: .anonymous, user: User(uid: uid, isAnonymous: true), tokenExpiresAt: token.expiresAt,
            connectivity: .online, needsUsername: false, pendingMerges: [], sequence: sequence)
        return SessionEvent(kind: kind, state: state, sequence: sequence, currentToken: token, index: Int64(refresh))
    }
}
