import SesameLocalAPI

// Reading results: the public values are the wire objects; a result that does not have the
// protocol's shape is a `protocolError`.

extension SesameState {
    /// Reads a protocol `State` object.
    static func decode(_ json: JSONValue, reason: SesameChangeReason? = nil) throws(SesameClientError) -> SesameState {
        guard let state = SesameState(json: json) else { throw .protocolError("a State without status or sequence") }
        return state.with(reason: reason)
    }

    /// Reads `{state, merge}`, the result of the sign-in methods.
    static func decodeWithMerge(
        _ json: JSONValue
    ) throws(SesameClientError) -> (state: SesameState, merge: SesameMerge?) {
        guard let stateJSON = json["state"] else { throw .protocolError("a sign-in result without state") }
        let state = try decode(stateJSON)
        guard let mergeJSON = json["merge"], !mergeJSON.isNull else { return (state, nil) }
        guard let merge = SesameMerge(json: mergeJSON) else {
            throw .protocolError("a Merge without mergeId, fromUid or toUid")
        }
        return (state, merge)
    }

    /// The same state, yielded for `reason`.
    func with(reason: SesameChangeReason?) -> SesameState {
        var state = self
        state.changeReason = reason
        return state
    }
}

extension SesameHello {
    static func decode(_ json: JSONValue) throws(SesameClientError) -> SesameHello {
        guard let hello = SesameHello(json: json) else {
            throw .protocolError("a hello result without server or instance")
        }
        return hello
    }
}

extension SesameIDToken {
    static func decode(_ json: JSONValue) throws(SesameClientError) -> SesameIDToken {
        guard let token = SesameIDToken(json: json) else {
            throw .protocolError("a token result without token, uid or expiresAt")
        }
        return token
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

extension SesameSignInFlow {
    static func decode(_ json: JSONValue) throws(SesameClientError) -> SesameSignInFlow {
        guard let flow = SesameSignInFlow(json: json) else {
            throw .protocolError("a SignInFlow without flowId, providerId, flow or status")
        }
        return flow
    }
}

extension SesameTotpEnrollment {
    static func decode(_ json: JSONValue) throws(SesameClientError) -> SesameTotpEnrollment {
        guard let enrollment = SesameTotpEnrollment(json: json) else {
            throw .protocolError("an enrollTotp result without enrollmentId, secret or otpauthUri")
        }
        return enrollment
    }
}

extension SesameAccessGrant {
    /// Reads `{grants}`, the result of `listAccessGrants`.
    static func decodeList(_ json: JSONValue) throws(SesameClientError) -> [SesameAccessGrant] {
        guard let grants = json["grants"]?.arrayValue else { throw .protocolError("a grant list without grants") }
        return grants.compactMap { SesameAccessGrant(json: $0) }
    }
}
