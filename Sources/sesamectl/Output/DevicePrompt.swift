import SesameClient

/// What `sign-in --device` prints when the flow starts: the page to open, the code, and a QR
/// code of the page. Pure: whether to draw the QR code and in colour is passed in.
enum DevicePrompt {
    /// The URL to open: the one with the code filled in when the provider gives it.
    static func url(of flow: SesameSignInFlow) -> String? {
        flow.verificationUriComplete ?? flow.verificationUri
    }

    /// The prompt's lines for standard output.
    /// - Parameters:
    ///   - qr: draw a QR code of the URL (`--no-qr` turns it off).
    ///   - colours: standard output is a terminal, so ANSI colours may paint the QR code.
    static func lines(for flow: SesameSignInFlow, qr: Bool, colours: Bool) -> [String] {
        // What the provider sent is shown with its control characters made visible; the colours
        // and the QR code are this program's own.
        let provider = TerminalText.sanitized(flow.providerId)
        guard let url = url(of: flow) else {
            return ["sesamed started a \(provider) sign-in without a page to open (flow \(flow.flowId))"]
        }
        var lines = [
            "To sign in with \(provider), open this page on a phone or a computer:", "",
            "    \(TerminalText.sanitized(url))", "",
        ]
        if let code = flow.userCode.map(TerminalText.sanitized) {
            let verb = flow.verificationUriComplete == nil ? "enter the code" : "check that it shows the code"
            lines += ["and \(verb):", "", "    \(code)", ""]
        }
        if qr, let symbol = QRCode(encoding: url) {
            lines.append("Or scan this QR code:")
            lines += TerminalQRCode(colours: colours).lines(for: symbol)
            lines.append("")
        }
        return lines
    }
}
