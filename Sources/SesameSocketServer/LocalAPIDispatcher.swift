import Foundation
import Logging
import SesameCore
import SesameLocalAPI
import SesameService

/// Turns a request from a caller into a call of the session service and its answer.
///
/// Authorisation happens here, per method, from the caller's role. Domain errors become wire
/// errors at this edge; anything unexpected is `-32603` and logged, never sent in detail.
struct LocalAPIDispatcher: Sendable {
    let service: SessionService
    let hub: SubscriptionHub
    let instance: String
    let version: String
    let usernamesEnabled: Bool
    let logger: Logger

    /// Who sent a request.
    struct Caller: Sendable {
        var peer: PeerCredentials
        var role: LocalAPIRole
        var output: ConnectionOutput
    }

    /// What to do with a request.
    enum Plan {
        /// Answered already (or queued, for `subscribe`): nothing more to do.
        case answered
        /// Answer this now.
        case respond(LocalAPIMessage)
        /// Answer after the session service replied.
        case later
    }

    /// Handles what can be answered on the event loop; the rest is `.later` for ``execute``.
    func plan(_ request: LocalAPIRequest, caller: Caller) -> Plan {
        let id = request.id ?? .null
        guard let method = LocalAPIMethod(rawValue: request.method) else {
            return .respond(.failure(id: id, error: .methodNotFound(request.method)))
        }
        if caller.role < method.requiredRole {
            return .respond(.failure(id: id, error: .permissionDenied(requiredRole: method.requiredRole)))
        }
        do throws(LocalAPIError) {
            switch method {
            case .hello:
                _ = try request.params.optionalString("client")
                let hello = WireHello(
                    version: version, instance: instance, role: caller.role, peerUid: caller.peer.uid,
                    peerGid: caller.peer.gid, peerPid: caller.peer.pid, backend: service.backendName)
                return .respond(.success(id: id, result: hello.json))
            case .getState:
                return .respond(.success(id: id, result: hub.snapshot.wire.json))
            case .subscribe:
                let migrator = try request.params.optionalBool("migrator") ?? false
                if migrator && caller.role < .manager {
                    return .respond(.failure(id: id, error: .permissionDenied(requiredRole: .manager)))
                }
                var events = LocalAPIEvent.defaultSet
                if let names = try request.params.optionalStringArray("events") {
                    events = []
                    for name in names {
                        guard let event = LocalAPIEvent(rawValue: name) else {
                            throw .invalidParams("Unknown event \"\(name.prefix(64))\".")
                        }
                        events.insert(event)
                    }
                }
                if migrator { events.insert(.accountMerge) }
                hub.subscribe(output: caller.output, requestID: id, events: events, migrator: migrator)
                return .answered
            case .unsubscribe:
                let subscription = try request.params.string("subscription")
                guard hub.unsubscribe(output: caller.output, subscription: subscription) else {
                    throw .invalidParams("There is no subscription \"\(subscription.prefix(64))\" on this connection.")
                }
                return .respond(.success(id: id, result: .object([:])))
            case .getIdToken:
                let snapshot = hub.snapshot
                let uid = try request.params.optionalString("uid")
                if let uid, uid != snapshot.state.user?.uid, caller.role < .manager {
                    return .respond(.failure(id: id, error: .permissionDenied(requiredRole: .manager)))
                }
                // The fast path: a held token that stays valid long enough is answered here, on
                // the event loop; anything else (refresh, guest token, errors) goes to the actor.
                let force = try request.params.optionalBool("forceRefresh") ?? false
                let minValidity = try request.params.optionalNumber("minValidity") ?? 300
                if !force, uid == nil || uid == snapshot.state.user?.uid, let user = snapshot.state.user,
                    let token = snapshot.token, minValidity >= 0, token.isValid(for: minValidity, at: Date())
                {
                    return .respond(.success(id: id, result: Self.tokenJSON(token, uid: user.uid)))
                }
                return .later
            default:
                return .later
            }
        } catch {
            return .respond(.failure(id: id, error: error))
        }
    }

    /// Runs a request that needs the session service and returns its answer, once the
    /// notifications the request caused are queued (they go out before it).
    func execute(_ request: LocalAPIRequest, caller: Caller) async -> LocalAPIMessage {
        let answer = await answer(request)
        await hub.waitUntilPublished(await service.emittedEvents)
        return answer
    }

    private func answer(_ request: LocalAPIRequest) async -> LocalAPIMessage {
        let id = request.id ?? .null
        guard let method = LocalAPIMethod(rawValue: request.method) else {
            return .failure(id: id, error: .methodNotFound(request.method))
        }
        do {
            return .success(id: id, result: try await run(method, request.params))
        } catch let error as LocalAPIError {
            return .failure(id: id, error: error)
        } catch let error as AuthError {
            logger.debug("Request failed", metadata: ["method": "\(method.rawValue)", "reason": "\(error.reason.rawValue)"])
            return .failure(id: id, error: error.wire)
        } catch {
            logger.error("Internal error", metadata: ["method": "\(method.rawValue)", "error": "\(type(of: error))"])
            return .failure(id: id, error: .internalError)
        }
    }

    private func outcomeJSON(_ outcome: SessionService.SignInOutcome) -> JSONValue {
        .object(["state": outcome.state.wire.json, "merge": outcome.merge.map { $0.wire.json } ?? .null])
    }

    private func run(_ method: LocalAPIMethod, _ params: LocalAPIParams) async throws -> JSONValue {
        switch method {
        case .getIdToken:
            let force = try params.optionalBool("forceRefresh") ?? false
            let minValidity = try params.optionalNumber("minValidity") ?? 300
            guard minValidity >= 0 else { throw LocalAPIError.invalidParams("\"minValidity\" must not be negative.") }
            let uid = try params.optionalString("uid")
            let issued = try await service.idToken(minValidity: minValidity, forceRefresh: force, uid: uid)
            return Self.tokenJSON(issued.idToken, uid: issued.uid)
        case .signInAnonymously:
            return (try await service.signInAnonymously()).wire.json
        case .signOut:
            let reset = try params.optionalBool("reset") ?? false
            return (try await service.signOut(reset: reset)).wire.json
        case .deleteAccount:
            return (try await service.deleteAccount()).wire.json
        case .reload:
            return (try await service.reload()).wire.json
        case .updateProfile:
            let displayName = try params.optionalString("displayName")
            return (try await service.updateProfile(displayName: displayName)).wire.json
        case .createAccount:
            let email = try params.string("email")
            let password = try params.string("password")
            let username = try params.optionalString("username")
            return (try await service.createAccount(email: email, password: password, username: username)).wire.json
        case .signIn:
            let identifier = try params.string("identifier")
            let password = try params.string("password")
            return outcomeJSON(try await service.signIn(identifier: identifier, password: password))
        case .sendSignInLink:
            let email = try params.string("email")
            let continueUrl = try params.optionalString("continueUrl")
            let sent = try await service.sendSignInLink(email: email, continueUrl: continueUrl)
            return .object(["email": .string(sent)])
        case .completeSignInLink:
            let email = try params.optionalString("email")
            return outcomeJSON(try await service.completeSignInLink(try Self.signInProof(from: params), email: email))
        case .signInWithIdp:
            let providerId = try params.string("providerId")
            let idToken = try params.optionalString("idToken")
            let accessToken = try params.optionalString("accessToken")
            return outcomeJSON(
                try await service.signInWithIdp(providerId: providerId, idToken: idToken, accessToken: accessToken))
        case .linkCredential:
            let credential = try params.object("credential")
            return (try await service.linkCredential(try Self.credential(from: credential))).wire.json
        case .unlink:
            let providerId = try params.string("providerId")
            return (try await service.unlink(providerId: providerId)).wire.json
        case .sendPasswordReset:
            let identifier = try params.string("identifier")
            try await service.sendPasswordReset(identifier: identifier)
            return .object([:])
        case .sendEmailVerification:
            try await service.sendEmailVerification()
            return .object([:])
        case .completeMerge:
            let mergeId = try params.string("mergeId")
            return (try await service.completeMerge(mergeId: mergeId)).wire.json
        case .setUsername:
            let username = try params.string("username")
            return (try await service.setUsername(username)).wire.json
        case .checkUsername:
            let username = try params.string("username")
            let check = try await service.checkUsername(username)
            var result: [String: JSONValue] = ["username": .string(username), "available": .bool(check.available)]
            if let reason = check.reason { result["reason"] = .string(reason.rawValue) }
            return .object(result)
        case .hello, .getState, .subscribe, .unsubscribe:
            throw LocalAPIError.internalError
        }
    }

    static func tokenJSON(_ token: IDToken, uid: String) -> JSONValue {
        WireIdToken(
            token: token.rawValue, uid: uid, expiresAt: token.expiresAt, issuedAt: token.issuedAt,
            signInProvider: token.signInProvider
        ).json
    }

    /// `link`, or `code`: exactly one of the two. `email` is optional with either (the address
    /// remembered from `sendSignInLink` is used without it).
    static func signInProof(from params: LocalAPIParams) throws(LocalAPIError) -> EmailSignInProof {
        let link = try params.optionalString("link")
        let code = try params.optionalString("code")
        switch (link, code) {
        case (let link?, nil):
            return .link(link)
        case (nil, let code?):
            return .code(code)
        default:
            throw .invalidParams("Give either \"link\" (the whole link from the email) or \"code\" (the one-time code from the email), not both.")
        }
    }

    static func credential(from params: LocalAPIParams) throws(LocalAPIError) -> Credential {
        let providerId = try params.string("providerId")
        switch providerId {
        case "password":
            return .password(email: try params.string("email"), password: try params.string("password"))
        case "emailLink":
            // Without "email", the daemon uses the address it remembers from sendSignInLink.
            return .emailLink(email: try params.optionalString("email") ?? "", link: try params.string("link"))
        default:
            let idToken = try params.optionalString("idToken")
            let accessToken = try params.optionalString("accessToken")
            guard idToken != nil || accessToken != nil else {
                throw .invalidParams("A federated credential needs \"idToken\" or \"accessToken\".")
            }
            return .federated(providerId: providerId, idToken: idToken, accessToken: accessToken)
        }
    }
}
