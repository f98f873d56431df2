import Foundation
import SesameLocalAPI

// Wire objects → the client's public values. A result that does not have the protocol's shape
// is a `protocolError`.

extension SesameUser {
    init(_ wire: WireUser) {
        self.init(
            uid: wire.uid, isAnonymous: wire.isAnonymous, email: wire.email, emailVerified: wire.emailVerified,
            displayName: wire.displayName, username: wire.username, providers: wire.providers,
            createdAt: wire.createdAt, lastSignInAt: wire.lastSignInAt)
    }
}

extension SesameMerge {
    init(_ wire: WireMerge) {
        self.init(mergeId: wire.mergeId, fromUid: wire.fromUid, toUid: wire.toUid, createdAt: wire.createdAt)
    }

    static func decode(_ json: JSONValue) throws(SesameClientError) -> SesameMerge {
        guard let wire = WireMerge(json: json) else {
            throw .protocolError("a Merge without mergeId, fromUid or toUid")
        }
        return SesameMerge(wire)
    }
}

extension SesameState {
    /// Reads a protocol `State` object, keeping it verbatim in `json`.
    static func decode(_ json: JSONValue, reason: SesameChangeReason? = nil) throws(SesameClientError) -> SesameState {
        guard let wire = WireState(json: json) else { throw .protocolError("a State without status or sequence") }
        return SesameState(
            status: SesameStatus(rawValue: wire.status), user: wire.user.map(SesameUser.init),
            tokenExpiresAt: wire.tokenExpiresAt, connectivity: SesameConnectivity(rawValue: wire.connectivity),
            needsUsername: wire.needsUsername, pendingMerges: wire.pendingMerges.map(SesameMerge.init),
            sequence: wire.sequence, changeReason: reason, json: json.jsonString)
    }

    /// Reads `{state, merge}`, the result of the sign-in methods.
    static func decodeWithMerge(
        _ json: JSONValue
    ) throws(SesameClientError) -> (state: SesameState, merge: SesameMerge?) {
        guard let stateJSON = json["state"] else { throw .protocolError("a sign-in result without state") }
        let state = try decode(stateJSON)
        guard let mergeJSON = json["merge"], !mergeJSON.isNull else { return (state, nil) }
        return (state, try SesameMerge.decode(mergeJSON))
    }
}

extension SesameHello {
    static func decode(_ json: JSONValue) throws(SesameClientError) -> SesameHello {
        guard let wire = WireHello(json: json) else {
            throw .protocolError("a hello result without server or instance")
        }
        return SesameHello(
            server: wire.server, version: wire.version, protocolVersion: wire.protocol, instance: wire.instance,
            role: SesameRole(rawValue: wire.role.rawValue) ?? .none, peerUid: wire.peerUid, peerGid: wire.peerGid,
            peerPid: wire.peerPid)
    }
}

extension SesameIDToken {
    static func decode(_ json: JSONValue) throws(SesameClientError) -> SesameIDToken {
        guard let wire = WireIdToken(json: json) else {
            throw .protocolError("a token result without token, uid or expiresAt")
        }
        return SesameIDToken(
            token: wire.token, uid: wire.uid, expiresAt: wire.expiresAt, issuedAt: wire.issuedAt,
            signInProvider: wire.signInProvider)
    }
}

extension SesameUsernameAvailability {
    static func decode(_ json: JSONValue) throws(SesameClientError) -> SesameUsernameAvailability {
        guard let username = json["username"]?.stringValue, let available = json["available"]?.boolValue else {
            throw .protocolError("a checkUsername result without username or available")
        }
        return SesameUsernameAvailability(username: username, available: available, reason: json["reason"]?.stringValue)
    }
}

extension SesameClientError {
    /// A daemon error from the wire.
    init(_ error: LocalAPIError) {
        self = .daemon(
            DaemonError(
                code: error.code.rawValue, reason: error.reason, message: error.message,
                dataJSON: JSONValue.object(error.data).jsonString, email: error.data["email"]?.stringValue,
                providerId: error.data["providerId"]?.stringValue,
                providers: error.data["providers"]?.arrayValue?.compactMap(\.stringValue),
                retryAfterMs: error.data["retryAfterMs"]?.int64Value.map { Int(clamping: $0) },
                requiredRole: error.data["requiredRole"]?.stringValue))
    }
}

extension SesameCredential {
    /// The `credential` param of `linkCredential`.
    var json: JSONValue {
        switch self {
        case .password(let email, let password):
            ["providerId": "password", "email": .string(email), "password": .string(password)]
        case .emailLink(let email, let link):
            .object(
                ["providerId": "emailLink", "link": .string(link)]
                    .merging(email.map { ["email": .string($0)] } ?? [:]) { a, _ in a })
        case .federated(let providerId, let idToken, let accessToken):
            .object(
                ["providerId": .string(providerId)]
                    .merging(idToken.map { ["idToken": .string($0)] } ?? [:]) { a, _ in a }
                    .merging(accessToken.map { ["accessToken": .string($0)] } ?? [:]) { a, _ in a })
        }
    }
}
