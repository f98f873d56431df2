import Foundation
import SesameClient

/// The question `sesamectl delete-account` asks on a terminal before deleting, and which
/// answers confirm it. Pure.
///
/// An account (it has an email or a username) is confirmed by typing that name, as in
/// `gh repo delete`: a reflexive "y" cannot delete a real account. A guest, whose data is all
/// it has, is confirmed with `y` or `yes`.
struct DeleteConfirmation: Sendable, Equatable {
    /// What the person must type, or nil when `y`/`yes` confirms (a guest).
    var expected: String?
    /// The question, ending with the prompt (no newline).
    var prompt: String

    /// The confirmation for the signed-in user of `state`, or nil when nobody is signed in
    /// (there is nothing to confirm; the daemon's answer says so).
    init?(state: SesameState) {
        guard let user = state.user else { return nil }
        if user.isAnonymous {
            expected = nil
            prompt = "Delete this guest account (uid \(user.uid)) and all its data for good? [y/N] "
            return
        }
        let name = user.email ?? user.username ?? user.uid
        expected = name
        prompt =
            "This deletes the account \(name) (uid \(user.uid)) and its data at the backend for good; "
            + "a new guest session follows.\nType \(name) to confirm: "
    }

    /// Whether `answer` (one line as typed) confirms the deletion. Email addresses and
    /// usernames compare without regard to case; surrounding spaces are ignored.
    func accepts(_ answer: String) -> Bool {
        let typed = answer.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        guard let expected else { return typed == "y" || typed == "yes" }
        return !typed.isEmpty && typed == expected.lowercased()
    }
}
