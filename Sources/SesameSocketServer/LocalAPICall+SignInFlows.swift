import Foundation
import SesameCore
import SesameLocalAPI

extension LocalAPICall {
    /// The parameters of a sign-in flow's start: `flow` is `device` or `browser`; a browser flow needs a
    /// loopback `redirectUri` (RFC 8252 §7.3: `http://127.0.0.1:PORT/…` or `http://[::1]:PORT/…`).
    static func signInFlowRequest(from params: LocalAPIParams) throws(LocalAPIError) -> SignInFlowRequest {
        let providerId = try params.string("providerId")
        guard !providerId.isEmpty, providerId.utf8.count <= 128 else {
            throw .invalidParams("\"providerId\" must be a provider id such as google.com.")
        }
        let flowName = try params.string("flow")
        guard let kind = SignInFlow.Kind(rawValue: flowName) else {
            throw .invalidParams("\"flow\" must be \"device\" or \"browser\".")
        }
        let purposeName = try params.optionalString("purpose") ?? SignInFlow.Purpose.signIn.rawValue
        guard let purpose = SignInFlow.Purpose(rawValue: purposeName) else {
            throw .invalidParams("\"purpose\" must be \"sign-in\" or \"reauthenticate\".")
        }
        var redirectUri: String?
        if kind == .browser {
            guard let uri = try params.optionalString("redirectUri") else {
                throw .invalidParams("A browser flow needs \"redirectUri\": the loopback listener's URL.")
            }
            guard Self.isLoopbackRedirect(uri) else {
                throw .invalidParams(
                    "\"redirectUri\" must be a loopback URL such as http://127.0.0.1:PORT/callback (RFC 8252).")
            }
            redirectUri = uri
        }
        return SignInFlowRequest(providerId: providerId, kind: kind, redirectUri: redirectUri, purpose: purpose)
    }

    /// Whether `uri` is `http://` on 127.0.0.1 or [::1] with a port.
    static func isLoopbackRedirect(_ uri: String) -> Bool {
        guard uri.utf8.count <= 2048, let components = URLComponents(string: uri), components.scheme == "http",
            components.user == nil, components.password == nil, components.port != nil
        else { return false }
        return components.host == "127.0.0.1" || components.host == "[::1]" || components.host == "::1"
    }
}
