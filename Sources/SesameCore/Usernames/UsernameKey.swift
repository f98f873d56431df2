import Foundation

/// Derives the directory key of a username: the form under which `/users/usernames/{key}`
/// stores it, so that names differing only in case or in compatibility form collide.
///
/// `key = NFKC(fold(NFKC(name)))` with `.` replaced by `,`, where `fold` is Unicode full case
/// folding (`ß` → `ss`, `ς` → `σ`, `İ` → `i̇`; the Turkic-specific `I` → `ı` mapping is not
/// applied, so `ı` and `i` stay different). Foundation's
/// `folding(options: .caseInsensitive, locale: nil)` implements full case folding except for
/// Cherokee (whose small letters Unicode folds to the capitals) and the Cyrillic letter variants
/// U+1C80–U+1C88; those mappings are applied here. With them, the key of every single letter,
/// mark and number scalar equals Python's `NFKC(NFKC(c).casefold())` (checked for every such
/// scalar below U+20000 that Unicode 14, Python 3.11's data, assigns).
/// A web app or backend sharing the directory must derive keys the same way (see
/// `docs/usernames.md`, which gives an equivalent ICU/Python recipe).
public enum UsernameKey {
    /// The key for `name`. Pure; does not validate `name` (see ``UsernameRules``).
    public static func derive(from name: String) -> String {
        let compatible = name.precomposedStringWithCompatibilityMapping
        let folded = foldRemaining(compatible.folding(options: .caseInsensitive, locale: nil))
        let normalised = folded.precomposedStringWithCompatibilityMapping
        return normalised.replacingOccurrences(of: ".", with: ",")
    }

    /// The CaseFolding.txt mappings Foundation leaves out: Cherokee small letters fold to the
    /// capitals (the reverse of every other bicameral script), the Cyrillic variants
    /// U+1C80–U+1C88 fold to their ordinary letters, and capitals added after Foundation's
    /// Unicode version (e.g. U+1C89, U+A7CB from Unicode 16) fold to their lower-case letters.
    private static func foldRemaining(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0xAB70...0xABBF:
                scalars.append(Unicode.Scalar(value - 0xAB70 + 0x13A0)!)
            case 0x13F8...0x13FD:
                scalars.append(Unicode.Scalar(value - 0x13F8 + 0x13F0)!)
            case 0x1C80...0x1C88:
                scalars.append(cyrillicVariantFolding[Int(value - 0x1C80)])
            default:
                // Letters newer than Foundation's case data (the standard library knows a
                // later Unicode): their folding is their lower-case mapping.
                if scalar.properties.changesWhenCaseFolded {
                    scalars.append(contentsOf: scalar.properties.lowercaseMapping.unicodeScalars)
                } else {
                    scalars.append(scalar)
                }
            }
        }
        return String(scalars)
    }

    /// U+1C80 ROUNDED VE … U+1C88 UNBLENDED UK, folded (CaseFolding.txt, status C).
    private static let cyrillicVariantFolding: [Unicode.Scalar] = [
        "\u{0432}", "\u{0434}", "\u{043E}", "\u{0441}", "\u{0442}", "\u{0442}", "\u{044A}", "\u{0463}", "\u{A64B}",
    ]
}
