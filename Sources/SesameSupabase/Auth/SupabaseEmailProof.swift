import Foundation
import SesameCore

/// What a passwordless sign-in email carries, as the person hands it over: the one-time code, or
/// the link (GoTrue's `…/auth/v1/verify?token=<hash>&type=magiclink&redirect_to=…`, or a site
/// link carrying `token_hash` and `type`).
enum SupabaseEmailProof: Sendable, Hashable {
    /// The code typed from the email (`/verify {type:"email", email, token}`).
    case code(String)
    /// The hashed token of a link, with its type (`/verify {type, token_hash}`).
    case tokenHash(String, type: String)

    /// Reads what the person handed over: a link must carry `token` or `token_hash`; a code
    /// must not be empty. Nil otherwise.
    init?(_ proof: EmailSignInProof) {
        switch proof {
        case .link(let text): self.init(link: text)
        case .code(let text):
            let code = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !code.isEmpty else { return nil }
            self = .code(code)
        }
    }

    /// Reads a pasted link; nil unless it is a URL with `token` or `token_hash`.
    init?(link text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.contains("://"), let items = URLComponents(string: trimmed)?.queryItems else { return nil }
        func value(_ name: String) -> String? {
            items.first { $0.name == name }?.value.flatMap { $0.isEmpty ? nil : $0 }
        }
        guard let hash = value("token_hash") ?? value("token") else { return nil }
        self = .tokenHash(hash, type: value("type") ?? "magiclink")
    }

    /// The `/verify` body.
    func verifyBody(email: String) -> VerifyBody {
        switch self {
        case .code(let code): VerifyBody(type: "email", email: email, token: code)
        case .tokenHash(let hash, let type): VerifyBody(type: type, tokenHash: hash)
        }
    }
}
