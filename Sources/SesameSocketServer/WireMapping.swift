import Foundation
import SesameCore
import SesameLocalAPI
import SesameService

/// Domain → wire, on the server side (the wire vocabulary never imports the domain).
extension User {
    var wire: WireUser {
        WireUser(
            uid: uid, isAnonymous: isAnonymous, email: email, emailVerified: emailVerified, displayName: displayName,
            username: username, providers: providers, createdAt: createdAt, lastSignInAt: lastSignInAt,
            factors: factors.map(\.wire), pendingEmail: pendingEmail)
    }
}

extension SecondFactor {
    var wire: SesameSecondFactor {
        SesameSecondFactor(factorId: factorId, type: type, displayName: displayName, enrolledAt: enrolledAt)
    }
}

extension SecondFactorChallenge {
    var wire: SesameSecondFactorChallenge {
        SesameSecondFactorChallenge(challengeId: challengeId, factors: factors.map(\.wire), expiresAt: expiresAt)
    }
}

extension RateLimit {
    var wire: SesameRateLimit { SesameRateLimit(operation: operation, retryAt: retryAt, limit: limit) }
}

extension Merge {
    var wire: WireMerge { WireMerge(mergeId: mergeId, fromUid: fromUid, toUid: toUid, createdAt: createdAt) }
}

extension AuthState {
    /// The wire State, as of this state's own sequence.
    var wire: WireState { wire(sequence: sequence) }

    func wire(sequence: Int64) -> WireState {
        WireState(
            status: status.rawValue, user: user?.wire, tokenExpiresAt: tokenExpiresAt,
            connectivity: connectivity.rawValue, needsUsername: needsUsername,
            pendingMerges: pendingMerges.map(\.wire), sequence: sequence, signInPrompt: signInPrompt?.wire,
            secondFactor: secondFactor?.wire, rateLimit: rateLimit?.wire)
    }
}

extension SignInPrompt {
    var wire: SesameSignInPrompt {
        SesameSignInPrompt(
            flowId: flowId, providerId: providerId, flow: kind.rawValue, verificationUri: verificationUri,
            verificationUriComplete: verificationUriComplete, userCode: userCode, expiresAt: expiresAt)
    }
}

extension SignInFlow {
    var wire: WireSignInFlow {
        WireSignInFlow(
            flowId: flowId, providerId: providerId, flow: kind.rawValue, status: status.rawValue,
            verificationUri: verificationUri, verificationUriComplete: verificationUriComplete, userCode: userCode,
            authorizationUrl: authorizationUrl, expiresAt: expiresAt, intervalSeconds: intervalSeconds,
            purpose: purpose.rawValue, state: state)
    }
}

extension AuthError {
    /// The wire error: the code follows from the category; conflicts carry what the client
    /// needs to act.
    var wire: LocalAPIError {
        let code: LocalAPIErrorCode
        switch category {
        case .authentication: code = .authentication
        case .backend: code = .backend
        case .state: code = .state
        }
        var data: [String: JSONValue] = [:]
        if let email { data["email"] = .string(email) }
        if let providerId { data["providerId"] = .string(providerId) }
        if let providers { data["providers"] = .array(providers.map { .string($0) }) }
        if let challenge { data.merge(challenge.wire.members) { _, new in new } }
        if category == .backend { data["retryAfterMs"] = .integer(Int64(retryAfterMs ?? 1000)) }
        return LocalAPIError(code: code, reason: reason.rawValue, message: message, data: data)
    }
}

extension SessionEventWire {
    /// The notification for a session event as `role` sees it (``FlowVisibility``); nil for the
    /// snapshot that opens a stream. The wire state is built only for the notifications that
    /// carry it.
    static func notification(
        for event: SessionEvent, shownTo role: LocalAPIRole, accessRequests: [SesameAccessRequest] = []
    ) -> LocalAPINotification? {
        func state() -> WireState {
            var state = event.state.visible(to: role).wire(sequence: event.sequence)
            if role >= .manager { state.accessRequests = accessRequests }
            return state
        }
        switch event.kind {
        case .snapshot:
            return nil
        case .authStateChanged(let previousUid, let reason):
            return .authStateChanged(
                state: state(), previousUid: previousUid, reason: reason.rawValue, sequence: event.sequence)
        case .idTokenChanged(let uid, let expiresAt):
            return .idTokenChanged(uid: uid, expiresAt: WireTime.string(expiresAt), sequence: event.sequence)
        case .userUpdated:
            return .userUpdated(state: state(), sequence: event.sequence)
        case .connectivityChanged:
            return .connectivityChanged(
                connectivity: event.state.connectivity.rawValue, rateLimit: event.state.rateLimit?.wire,
                sequence: event.sequence)
        case .mergeRecorded(let merge):
            return .accountMerge(merge: merge.wire, sequence: event.sequence)
        case .shutdown(let reason):
            return .shutdown(reason: reason, sequence: event.sequence)
        case .signInFlowChanged(let flow):
            return .signInFlowChanged(flow: flow.visible(to: role).wire, state: state(), sequence: event.sequence)
        }
    }
}

enum SessionEventWire {}
