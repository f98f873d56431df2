/// Text from the backend or the daemon (error messages, names, emails, a provider's words) made
/// safe for a terminal: a control character could move the cursor, retitle the window, rewrite
/// what was printed before or hide what follows. Each C0 control but newline and tab, DEL and
/// each C1 control is shown the way `cat -v` shows it (ESC as `^[`, U+009B as `M-^[`), so it is
/// visible and does nothing. Human output passes through here at its sinks (`StandardError`,
/// `CommonOptions.output`, the notification lines, the sign-in prompts); `--json` output stays
/// exact JSON, whose encoder escapes C0 itself.
enum TerminalText {
    static func sanitized(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: isControl) else { return text }
        var result = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            guard isControl(scalar) else {
                result.append(scalar)
                continue
            }
            let value = scalar.value
            let low = value & 0x7F
            if value >= 0x80 { result.append(contentsOf: "M-".unicodeScalars) }
            result.append("^")
            result.append(Unicode.Scalar(low == 0x7F ? 0x3F : low + 0x40)!)
        }
        return String(result)
    }

    /// C0 but newline and tab, DEL, C1.
    private static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x09: false
        case 0x00..<0x20, 0x7F..<0xA0: true
        default: false
        }
    }
}
