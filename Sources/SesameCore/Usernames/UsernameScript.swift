/// The scripts whose letters are confusable with each other (`а` Cyrillic vs `a` Latin, `ο`
/// Greek vs `o` Latin), and which a username may therefore not mix.
///
/// Swift's `Unicode.Scalar.Properties` exposes no script property, so membership comes from
/// code-point ranges taken from Unicode's `Scripts.txt` (Unicode 16) for the letters of each
/// script (checked against `\p{Script=…}` for every alphabetic scalar below U+20000). Only letters are classified: digits, `_`, `-`, `.` and combining marks are
/// script-neutral (Common / Inherited), and letters of every other script (Han, Hiragana,
/// Katakana, Hangul, Arabic, …) may appear together with any one of these three.
public enum UsernameScript: String, Sendable, Hashable, CaseIterable, Comparable {
    case latin
    case greek
    case cyrillic

    /// The confusable script `scalar` belongs to, or nil when it is in none of them.
    public init?(_ scalar: Unicode.Scalar) {
        let value = scalar.value
        for script in UsernameScript.allCases where script.ranges.contains(where: { $0.contains(value) }) {
            self = script
            return
        }
        return nil
    }

    public static func < (lhs: UsernameScript, rhs: UsernameScript) -> Bool {
        lhs.order < rhs.order
    }

    private var order: Int {
        switch self {
        case .latin: 0
        case .greek: 1
        case .cyrillic: 2
        }
    }

    /// The code-point ranges of the script's letters.
    private var ranges: [ClosedRange<UInt32>] {
        switch self {
        case .latin: Self.latinRanges
        case .greek: Self.greekRanges
        case .cyrillic: Self.cyrillicRanges
        }
    }

    private static let latinRanges: [ClosedRange<UInt32>] = [
        0x0041...0x005A, 0x0061...0x007A, 0x00AA...0x00AA, 0x00BA...0x00BA,
        0x00C0...0x00D6, 0x00D8...0x00F6, 0x00F8...0x02B8, 0x02E0...0x02E4,
        0x1D00...0x1D25, 0x1D2C...0x1D5C, 0x1D62...0x1D65, 0x1D6B...0x1D77,
        0x1D79...0x1DBE, 0x1E00...0x1EFF, 0x2071...0x2071, 0x207F...0x207F,
        0x2090...0x209C, 0x212A...0x212B, 0x2132...0x2132, 0x214E...0x214E,
        0x2160...0x2188, 0x2C60...0x2C7F, 0xA722...0xA787, 0xA78B...0xA7FF,
        0xAB30...0xAB5A, 0xAB5C...0xAB64, 0xAB66...0xAB69, 0xFB00...0xFB06,
        0xFF21...0xFF3A, 0xFF41...0xFF5A, 0x10780...0x107BA, 0x1DF00...0x1DF2A,
    ]

    private static let greekRanges: [ClosedRange<UInt32>] = [
        0x0370...0x0373, 0x0375...0x0377, 0x037A...0x037D, 0x037F...0x037F,
        0x0384...0x0384, 0x0386...0x0386, 0x0388...0x03E1, 0x03F0...0x03FF,
        0x1D26...0x1D2A, 0x1D5D...0x1D61, 0x1D66...0x1D6A, 0x1DBF...0x1DBF,
        0x1F00...0x1FFE, 0x2126...0x2126, 0xAB65...0xAB65, 0x10140...0x1018E,
        0x101A0...0x101A0, 0x1D200...0x1D245,
    ]

    private static let cyrillicRanges: [ClosedRange<UInt32>] = [
        0x0400...0x052F, 0x1C80...0x1C8A, 0x1D2B...0x1D2B, 0x1D78...0x1D78,
        0x2DE0...0x2DFF, 0xA640...0xA69F, 0xFE2E...0xFE2F, 0x1E030...0x1E08F,
    ]
}
