import HTTPTypes
import Hummingbird
import NIOCore

/// The fake identity provider's HTML pages: plain forms (no script), with stable element ids
/// (`user_code`, `email`, `name`, `approve`, `deny`) so a WebDriver test can drive them.
enum IdentityProviderPages {
    static let entities: [Character: String] = ["&": "&amp;", "<": "&lt;", ">": "&gt;", "\"": "&quot;", "'": "&#39;"]

    static func escape(_ text: String) -> String { text.map { entities[$0] ?? String($0) }.joined() }

    static func page(title: String, body: String, status: HTTPResponse.Status = .ok) -> Response {
        let html = """
            <!DOCTYPE html>
            <html lang="en">
            <head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
            <title>\(escape(title))</title>
            <style>body{font-family:sans-serif;max-width:28rem;margin:2rem auto;padding:0 1rem}
            label{display:block;margin-top:.8rem}input{width:100%;padding:.4rem;font-size:1rem}
            button{margin-top:1rem;margin-right:.5rem;padding:.5rem 1rem;font-size:1rem}</style>
            </head>
            <body>
            \(body)
            </body>
            </html>

            """
        return Response(
            status: status,
            headers: [
                .contentType: "text/html; charset=utf-8", .cacheControl: "no-store",
                HTTPField.Name("X-Frame-Options")!: "DENY",
            ],
            body: ResponseBody(byteBuffer: ByteBuffer(string: html)))
    }

    private static func field(_ id: String, _ label: String, value: String = "", type: String = "text") -> String {
        """
        <label for="\(id)">\(label)</label>
        <input id="\(id)" name="\(id)" type="\(type)" value="\(escape(value))">
        """
    }

    private static let buttons = """
        <button type="submit" id="approve" name="action" value="approve">Approve</button>
        <button type="submit" id="deny" name="action" value="deny">Deny</button>
        """

    /// The verification page of the device flow, where a person types the code shown on the device.
    static func device(
        providerId: String, userCode: String, email: String = "", name: String = "", problem: String?
    ) -> Response {
        let notice = problem.map { "<p id=\"problem\" role=\"alert\">\(escape($0))</p>" } ?? ""
        return page(
            title: "Sign in to a device with \(providerId)",
            body: """
                <h1>Sign in to a device</h1>
                <p>Fake identity provider <strong>\(escape(providerId))</strong> (sesame-emulator).
                Enter the code your device shows, and who you are.</p>
                \(notice)
                <form method="post" action="device">
                \(field("user_code", "Code", value: userCode))
                \(field("email", "Email", value: email, type: "email"))
                \(field("name", "Name (optional)", value: name))
                \(buttons)
                </form>
                """, status: problem == nil ? .ok : .badRequest)
    }

    /// The answer after a decision on the device page.
    static func deviceDone(approved: Bool) -> Response {
        page(
            title: approved ? "Device signed in" : "Sign-in denied",
            body: approved
                ? "<h1 id=\"result\">Done</h1><p>You can return to your device.</p>"
                : "<h1 id=\"result\">Denied</h1><p>The device was not signed in. You can return to your device.</p>")
    }

    /// The consent page of the browser flow; the request's parameters travel as hidden fields.
    static func authorize(providerId: String, hidden: [(String, String)]) -> Response {
        let fields = hidden.map { "<input type=\"hidden\" name=\"\($0.0)\" value=\"\(escape($0.1))\">" }
            .joined(separator: "\n")
        return page(
            title: "Sign in with \(providerId)",
            body: """
                <h1>Sign in with \(escape(providerId))</h1>
                <p>Fake identity provider (sesame-emulator). Who are you?</p>
                <form method="post" action="authorize">
                \(fields)
                \(field("email", "Email", type: "email"))
                \(field("name", "Name (optional)"))
                \(buttons)
                </form>
                """)
    }

    /// An error page (a request that cannot be answered by a redirect).
    static func problem(_ message: String, status: HTTPResponse.Status = .badRequest) -> Response {
        page(
            title: "Sign-in problem", body: "<h1>Sign-in problem</h1><p id=\"problem\">\(escape(message))</p>",
            status: status)
    }
}
