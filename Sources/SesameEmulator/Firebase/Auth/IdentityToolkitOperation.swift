import HTTPTypes
import Hummingbird

/// One Identity Toolkit (or Secure Token) operation the Auth emulator serves: its routes, the
/// name its calls are counted under, and what it does (the table: ``AuthEndpoints/operations``).
struct IdentityToolkitOperation: Sendable {
    typealias Perform = @Sendable (AccountStore, AuthEndpoints.Call) async throws(IdentityToolkitError) -> Response

    /// The v1 name (`accounts:signUp`), also the fault extension's counter name; `token` for the
    /// Secure Token API and `accounts` for the admin create.
    let name: String
    /// The paths it answers on.
    let paths: [String]
    let method: HTTPRequest.Method
    /// Only privileged callers (`Authorization: Bearer owner`) may call it.
    let privilegedOnly: Bool
    /// Whether `Authorization: Bearer …` is read at all (the Secure Token API ignores it).
    let honoursBearer: Bool
    let perform: Perform

    static let v1 = "/identitytoolkit.googleapis.com/v1/"
    static let v1Project = "/identitytoolkit.googleapis.com/v1/projects/{project}/"
    static let v3 = "/www.googleapis.com/identitytoolkit/v3/relyingparty/"

    /// An `accounts:…` operation: served at `/v1/<name>` and `/v1/projects/{project}/<name>`,
    /// and at `/v3/relyingparty/<v3Name>` when it has a v3 name.
    static func accounts(
        _ name: String, v3 v3Name: String? = nil, method: HTTPRequest.Method = .post, privilegedOnly: Bool = false,
        _ perform: @escaping Perform
    ) -> IdentityToolkitOperation {
        IdentityToolkitOperation(
            name: name, paths: [Self.v1 + name, Self.v1Project + name] + (v3Name.map { [Self.v3 + $0] } ?? []),
            method: method,
            privilegedOnly: privilegedOnly, honoursBearer: true, perform: perform)
    }

    /// A v2 multi-factor operation: served at `/v2/accounts/<name>`, counted as `accounts:<name>`.
    static func multiFactor(_ name: String, _ perform: @escaping Perform) -> IdentityToolkitOperation {
        IdentityToolkitOperation(
            name: "accounts:" + name,
            paths: [Self.v1 + "accounts:" + name, "/identitytoolkit.googleapis.com/v2/accounts/" + name],
            method: .post, privilegedOnly: false, honoursBearer: true, perform: perform)
    }

    /// An operation of a feature the emulator lacks: 400 with what Identity Toolkit answers when
    /// that feature is turned off (see ``AuthEndpoints/disabledFeatures``).
    static func disabled(_ feature: AuthEndpoints.DisabledFeature) -> IdentityToolkitOperation {
        IdentityToolkitOperation(
            name: feature.name, paths: feature.paths, method: .post, privilegedOnly: false, honoursBearer: true
        ) { _, _ throws(IdentityToolkitError) in
            throw .invalid(feature.message)
        }
    }
}
