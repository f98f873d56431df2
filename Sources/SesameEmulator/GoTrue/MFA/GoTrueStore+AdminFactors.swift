import SesameLocalAPI

/// `/admin/users/{id}/factors`: a user's second factors as the service role sees them
/// (GoTrue's admin.go: `adminUserGetFactors`, `adminUserUpdateFactor`, `adminUserDeleteFactor`).
extension GoTrueStore {
    /// `GET /admin/users/{id}/factors`: every factor of the user, verified or not (`[]` when none).
    func adminFactors(ofUser id: String) throws(GoTrueError) -> JSONValue {
        .array((try adminUser(id).factors ?? []).map(\.json))
    }

    /// `PUT /admin/users/{id}/factors/{factor_id} {friendly_name}`: the factor after the change.
    func adminUpdateFactor(
        _ factorId: String, ofUser id: String, friendlyName: String?
    ) throws(GoTrueError) -> JSONValue {
        let user = try adminUser(id)
        var factor = try ownedFactor(factorId, of: user)
        if let friendlyName, !friendlyName.isEmpty {
            factor.friendlyName = friendlyName
            factor.updatedAt = now
            users.updateFactor(factor.id, of: user.id) { [factor] in $0 = factor }
        }
        return factor.json
    }

    /// `DELETE /admin/users/{id}/factors/{factor_id}`: verified or not, without the AAL2 the
    /// user's own unenrolment needs; the sessions it raised go back to AAL1. Answers the factor.
    func adminDeleteFactor(_ factorId: String, ofUser id: String) throws(GoTrueError) -> JSONValue {
        let user = try adminUser(id)
        let factor = try ownedFactor(factorId, of: user)
        removeFactor(factor, of: user.id)
        return factor.json
    }
}
