import SesameCore
import SesameLocalAPI

/// The decoders of values the domain has a type for, called by the generated
/// ``LocalAPICall/decode(_:_:)``: where a method's params are more than their types.
extension LocalAPICall {
    /// `subscribe`'s events (all but `accountMerge` without `events`); `migrator` adds
    /// `accountMerge` (its role is checked on the event loop).
    static func subscription(from params: LocalAPIParams) throws(LocalAPIError) -> LocalAPICall {
        let migrator = try params.optionalBool("migrator") ?? false
        var events = LocalAPIEvent.defaultSet
        if let names = try params.optionalStringArray("events") {
            events = []
            for name in names {
                guard let event = LocalAPIEvent(rawValue: name) else {
                    throw .invalidParams("Unknown event \"\(name.prefix(64))\".")
                }
                events.insert(event)
            }
        }
        if migrator { events.insert(.accountMerge) }
        return .subscribe(events: events, migrator: migrator)
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
            throw .invalidParams(
                "Give either \"link\" (the whole link from the email) or \"code\" (the one-time code from the email), not both."
            )
        }
    }

    /// A `linkCredential` credential. An `emailLink` credential without `email` has an empty one:
    /// the address remembered from `sendSignInLink` is used.
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
