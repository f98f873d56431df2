import Foundation
import SesameLocalAPI
import SesameTesting

/// The emulator's fake identity providers (`/emulator/v1/idp/<providerId>/`), on the port the
/// daemon's backend uses, as a person (or a test) drives them.
extension EmulatorProcess {
    /// Sets the fake providers' knobs (device-code lifetime, polling interval).
    func configureIdentityProviders(lifetimeSeconds: Int? = nil, intervalSeconds: Int? = nil) async throws {
        var settings: [String: JSONValue] = [:]
        if let lifetimeSeconds { settings["deviceCodeLifetimeSeconds"] = .integer(Int64(lifetimeSeconds)) }
        if let intervalSeconds { settings["intervalSeconds"] = .integer(Int64(intervalSeconds)) }
        let (status, body) = try await request(
            "POST", "/emulator/v1/idp/config", json: .object(settings), port: backendPort)
        guard status == 200 else { throw HarnessError("idp config: \(status) \(body.jsonString)") }
    }

    /// Approves (or denies) a device code as the person would on the verification page.
    func approveDevice(
        providerId: String, userCode: String, email: String, deny: Bool = false
    ) async throws {
        let (status, body) = try await request(
            "POST", "/emulator/v1/idp/\(providerId)/device/approve",
            json: ["userCode": .string(userCode), "email": .string(email), "deny": .bool(deny)], port: backendPort)
        guard status == 200 else { throw HarnessError("device approve: \(status) \(body.jsonString)") }
    }

    /// An unsigned Firebase custom token for `uid`, as firebase-admin mints one for an emulator.
    static func unsignedCustomToken(uid: String, expiresIn: TimeInterval = 3600) -> String {
        let now = Int(Date().timeIntervalSince1970)
        let header = #"{"alg":"none","typ":"JWT"}"#
        let audience = "https://identitytoolkit.googleapis.com/google.identity.identitytoolkit.v1.IdentityToolkit"
        let payload =
            #"{"aud":"\#(audience)","iat":\#(now),"exp":\#(now + Int(expiresIn)),"iss":"firebase-adminsdk@demo-project.iam.gserviceaccount.com","sub":"firebase-adminsdk@demo-project.iam.gserviceaccount.com","uid":"\#(uid)"}"#
        return base64URL(header) + "." + base64URL(payload) + "."
    }

    /// A Supabase provisioning token: the `hashed_token` of an admin-generated magic link.
    func supabaseMagicLinkHash(email: String) async throws -> String {
        let (status, body) = try await supabaseRequest(
            "POST", "/auth/v1/admin/generate_link", json: ["type": "magiclink", "email": .string(email)])
        guard status == 200,
            let hash = body["hashed_token"]?.stringValue ?? body["properties"]?["hashed_token"]?.stringValue
        else { throw HarnessError("generate_link: \(status) \(body.jsonString)") }
        return hash
    }
}
