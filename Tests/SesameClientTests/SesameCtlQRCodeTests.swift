import Testing

@testable import sesamectl

@Suite("sesamectl QR codes (libqrencode, drawn with half blocks)")
struct SesameCtlQRCodeTests {
    /// A finder pattern: a dark 7×7 ring, a light 5×5 ring, a dark 3×3 centre.
    private func hasFinderPattern(_ code: QRCode, row: Int, column: Int) -> Bool {
        (0..<7).allSatisfy { r in
            (0..<7).allSatisfy { c in
                let ring = min(r, c, 6 - r, 6 - c)
                return code.isDark(row: row + r, column: column + c) == (ring != 1)
            }
        }
    }

    @Test("a short text is a version 1 symbol with its three finder patterns and timing pattern")
    func versionOne() throws {
        let code = try #require(QRCode(encoding: "HELLO"))
        #expect(code.size == 21)
        #expect(hasFinderPattern(code, row: 0, column: 0))
        #expect(hasFinderPattern(code, row: 0, column: 14))
        #expect(hasFinderPattern(code, row: 14, column: 0))
        #expect(!hasFinderPattern(code, row: 14, column: 14))
        #expect((8...12).map { code.isDark(row: 6, column: $0) } == [true, false, true, false, true])
    }

    @Test("a verification URL with its code takes a larger version; too much text does not fit")
    func sizes() throws {
        let url = "https://www.google.com/device?user_code=WDJB-MJHT"
        let code = try #require(QRCode(encoding: url))
        #expect(code.size > 21 && (code.size - 17) % 4 == 0)
        #expect(code == QRCode(encoding: url), "encoding is deterministic")
        #expect(QRCode(encoding: String(repeating: "x", count: 4_000)) == nil)
        #expect(QRCode(encoding: "") == nil)
    }

    @Test("two module rows per line, a quiet zone around, black on white with colours")
    func drawsWithColours() {
        // 2×2: dark light / light dark.
        let code = QRCode(size: 2, modules: [true, false, false, true])
        let lines = TerminalQRCode(quietZone: 1, colours: true).lines(for: code)
        #expect(lines == ["\u{1B}[30;47m \u{2584}  \u{1B}[0m", "\u{1B}[30;47m  \u{2580} \u{1B}[0m"])
    }

    @Test("without colours the light modules are the blocks")
    func drawsWithoutColours() {
        let code = QRCode(size: 2, modules: [true, false, false, true])
        let lines = TerminalQRCode(quietZone: 1, colours: false).lines(for: code)
        #expect(lines == ["\u{2588}\u{2580}\u{2588}\u{2588}", "\u{2588}\u{2588}\u{2584}\u{2588}"])
    }
}
