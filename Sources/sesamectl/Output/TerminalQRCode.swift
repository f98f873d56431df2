/// Draws a `QRCode` as text: two rows of modules per line with Unicode half blocks, so the
/// symbol is about square in a terminal and fits beside a prompt (`sign-in --device`,
/// `mfa enroll`).
struct TerminalQRCode {
    /// Light modules around the symbol. The standard asks for 4; 2 is what terminal QR codes
    /// (qrencode's UTF-8 output among them) use, and phone cameras read it.
    var quietZone = 2
    /// Paint black on white with ANSI colours, whatever the terminal's own colours are. Without
    /// colour the light modules are drawn as blocks in the terminal's text colour, which is right
    /// on the usual light-on-dark terminal.
    var colours: Bool

    func lines(for code: QRCode) -> [String] {
        let range = -quietZone..<(code.size + quietZone)
        var lines: [String] = []
        for top in stride(from: range.lowerBound, to: range.upperBound, by: 2) {
            var line = colours ? "\u{1B}[30;47m" : ""
            for column in range {
                let upper = paints(code.isDark(row: top, column: column))
                let lower = top + 1 < range.upperBound && paints(code.isDark(row: top + 1, column: column))
                line += Self.block(upper: upper, lower: lower)
            }
            lines.append(colours ? line + "\u{1B}[0m" : line)
        }
        return lines
    }

    /// Whether a module is drawn with the glyph (the foreground) rather than left as background.
    private func paints(_ dark: Bool) -> Bool { colours ? dark : !dark }

    private static func block(upper: Bool, lower: Bool) -> String {
        switch (upper, lower) {
        case (true, true): "\u{2588}"
        case (true, false): "\u{2580}"
        case (false, true): "\u{2584}"
        case (false, false): " "
        }
    }
}
