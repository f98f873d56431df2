import Foundation
import Logging
import SesameCore
import SesameLocalAPI
import SesameService

/// The session service as the socket server sees it (``LocalAPIService``): each call the event
/// loop does not answer runs by its concern's hand-written handler (`run<Handler>`; which one is
/// generated: SessionCalls+Registration.swift). Domain errors become wire errors at this edge;
/// anything unexpected is `-32603` and logged, never sent in detail.
struct SessionCalls: LocalAPIService {
    let service: SessionService
    let logger: Logger

    var backendName: String { service.backendName }
    var now: @Sendable () -> Date { service.now }
    var calendarOffset: @Sendable () -> TimeInterval { service.calendarOffset }

    func publish(to sink: @escaping @Sendable (SessionEvent) -> Void) async {
        await service.publish(to: sink)
    }

    func announceShutdown(reason: String) async {
        await service.announceShutdown(reason: reason)
    }

    /// Runs a call that needs the session service and returns its answer. The notifications
    /// the call caused are queued already: the service hands each event to the hub in the actor
    /// turn that makes it (``SessionService/publish(to:)``), so they go out before the answer.
    func execute(_ call: LocalAPICall, method: LocalAPIMethod) async -> SplicedResponse {
        do {
            return .success(try await BackendOperation.$current.withValue(method.rawValue) { try await run(call) })
        } catch let error as LocalAPIError {
            return .failure(error)
        } catch let error as AuthError {
            logger.debug(
                "Request failed", metadata: ["method": "\(method.rawValue)", "reason": "\(error.reason.rawValue)"])
            return .failure(error.wire)
        } catch {
            logger.error("Internal error", metadata: ["method": "\(method.rawValue)", "error": "\(type(of: error))"])
            return .failure(.internalError)
        }
    }

    func outcomeJSON(_ outcome: SessionService.SignInOutcome) -> JSONValue {
        // The state's dates are the calendar's already (the service made it); the merge's are not.
        let merge = outcome.merge?.onCalendar(calendarOffset())
        return .object(["state": outcome.state.wire.json, "merge": merge.map { $0.wire.json } ?? .null])
    }

    /// Runs the methods of the session itself (``run(_:)`` registers them).
    func runSession(_ call: LocalAPICall) async throws -> JSONValue {
        switch call {
        case .getIdToken(let minValidity, let force, let uid):
            let issued = try await service.tokens.idToken(minValidity: minValidity, forceRefresh: force, uid: uid)
            return LocalAPIDispatcher.tokenJSON(issued.idToken.onCalendar(calendarOffset()), uid: issued.uid)
        case .signInAnonymously:
            return (try await service.accounts.signInAnonymously()).wire.json
        case .signOut(let reset, let scope):
            let scope = SignOutScope(rawValue: scope) ?? .local
            return (try await service.accounts.signOut(reset: reset, scope: scope)).wire.json
        case .deleteAccount:
            return (try await service.accounts.deleteAccount()).wire.json
        case .reload:
            return (try await service.accounts.reload()).wire.json
        case .updateProfile(let displayName):
            return (try await service.accounts.updateProfile(displayName: displayName)).wire.json
        case .createAccount(let email, let password, let username):
            return (try await service.accounts.createAccount(email: email, password: password, username: username)).wire
                .json
        case .signIn(let identifier, let password):
            return outcomeJSON(try await service.accounts.signIn(identifier: identifier, password: password))
        case .sendSignInLink(let email, let continueUrl):
            let sent = try await service.accounts.sendSignInLink(email: email, continueUrl: continueUrl)
            return .object(["email": .string(sent)])
        case .completeSignInLink(let proof, let email):
            return outcomeJSON(try await service.accounts.completeSignInLink(proof, email: email))
        case .signInWithIdp(let providerId, let idToken, let accessToken):
            return outcomeJSON(
                try await service.accounts.signInWithIdp(
                    providerId: providerId, idToken: idToken, accessToken: accessToken))
        case .linkCredential(let credential):
            return (try await service.accounts.linkCredential(credential)).wire.json
        case .unlink(let providerId):
            return (try await service.accounts.unlink(providerId: providerId)).wire.json
        case .sendPasswordReset(let identifier):
            try await service.accounts.sendPasswordReset(identifier: identifier)
            return .object([:])
        case .sendEmailVerification:
            try await service.accounts.sendEmailVerification()
            return .object([:])
        case .completeMerge(let mergeId):
            return (try await service.accounts.completeMerge(mergeId: mergeId)).wire.json
        case .setUsername(let username):
            return (try await service.usernames.setUsername(username)).wire.json
        case .checkUsername(let username):
            let check = try await service.usernames.checkUsername(username)
            var result: [String: JSONValue] = ["username": .string(username), "available": .bool(check.available)]
            if let reason = check.reason { result["reason"] = .string(reason.rawValue) }
            return .object(result)
        default:
            throw LocalAPIError.internalError
        }
    }

    /// Runs the methods of PROTOCOL.md's "Sign-in flows" and "Provisioning".
    func runSignInFlows(_ call: LocalAPICall) async throws -> JSONValue {
        switch call {
        case .startSignIn(let request):
            return (try await service.signIn.start(request)).onCalendar(calendarOffset()).wire.json
        case .completeSignIn(let flowId, let callbackUrl):
            return outcomeJSON(try await service.signIn.complete(flowId: flowId, callbackUrl: callbackUrl))
        case .awaitSignIn(let flowId, let timeout):
            return outcomeJSON(try await service.signIn.wait(flowId: flowId, timeout: timeout))
        case .cancelSignIn(let flowId):
            try await service.signIn.cancel(flowId: flowId)
            return .object([:])
        case .signInWithCustomToken(let token):
            return outcomeJSON(try await service.signIn.withCustomToken(token))
        default:
            throw LocalAPIError.internalError
        }
    }

}
