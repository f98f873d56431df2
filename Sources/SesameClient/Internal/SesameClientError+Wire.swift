import SesameLocalAPI

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
                requiredRole: error.data["requiredRole"]?.stringValue,
                challenge: SesameSecondFactorChallenge(json: .object(error.data))))
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
