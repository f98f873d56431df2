import NIOHTTP1

/// A page the loopback listener answers the browser with. Its text is sesamectl's own words,
/// HTML-escaped; it never echoes the callback's parameters (`code`, `state`) nor the launch
/// address.
struct CallbackPage: Sendable, Equatable {
    var status: HTTPResponseStatus
    var title: String
    var message: String

    static let signedIn = CallbackPage(
        status: .ok, title: "Signed in",
        message: "Signed in — you can close this tab and go back to the terminal.")

    /// The sign-in failed: `message` says why and what to do next.
    static func failed(_ message: String) -> CallbackPage {
        CallbackPage(status: .ok, title: "Sign-in failed", message: message)
    }

    /// The provider accepted the person, and the account has a second factor: the terminal asks
    /// for the code.
    static let secondFactor = CallbackPage(
        status: .ok, title: "One more step",
        message: "This account has a second factor: go back to the terminal and type the code "
            + "your authenticator app shows.")

    /// A callback after the first one: the sign-in it belongs to is over.
    static let finished = CallbackPage(
        status: .ok, title: "Sign-in finished",
        message: "This sign-in is already finished; you can close this tab. "
            + "To sign in again, run sesamectl sign-in again.")

    /// sesamectl stopped waiting (Ctrl-C) before the browser came back.
    static let cancelled = CallbackPage(
        status: .ok, title: "Sign-in cancelled",
        message: "This sign-in was cancelled at the terminal; you can close this tab.")

    /// A callback with another sign-in's `state` (or a forged one): ignored, the sign-in goes on.
    static let foreign = CallbackPage(
        status: .badRequest, title: "Not this sign-in",
        message: "This answer does not belong to the sign-in sesamectl is waiting for, so it was ignored. "
            + "Finish the sign-in in the browser window sesamectl opened.")

    /// A callback with the sign-in's `state` but from a browser that did not open the launch
    /// address: the sign-in was stopped.
    static let unbound = CallbackPage(
        status: .forbidden, title: "Sign-in stopped",
        message: "This answer came back to a browser that did not start this sign-in, so sesamectl "
            + "stopped the sign-in to keep the machine safe; nobody was signed in. "
            + "Run sesamectl sign-in again and finish it in the browser it opens.")

    /// The launch address opened a second time: the sign-in was stopped.
    static let launchReopened = CallbackPage(
        status: .forbidden, title: "Sign-in stopped",
        message: "This sign-in address was opened a second time, so sesamectl stopped the sign-in "
            + "to keep the machine safe; nobody was signed in. Run sesamectl sign-in again.")

    /// Any path but the callback's and the launch address's (`/favicon.ico`, …).
    static let notFound = CallbackPage(status: .notFound, title: "Not found", message: "Nothing here.")

    /// The whole HTML document.
    var html: String {
        let title = Self.escaped(title)
        return """
            <!DOCTYPE html>
            <html lang="en"><head><meta charset="utf-8"><title>\(title) — sesame</title>
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <style>body{font-family:system-ui,sans-serif;max-width:36em;margin:4em auto;padding:0 1em;color:#222}</style>
            </head><body><h1>\(title)</h1><p>\(Self.escaped(message))</p></body></html>

            """
    }

    /// `text` with the characters that mean something in HTML replaced by entities.
    static func escaped(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
