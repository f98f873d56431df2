import Foundation

/// Derives the directory key of a username: the form under which `/users/usernames/{key}`
/// stores it, so that names differing only in case or in compatibility form collide.
///
/// `key = NFKC(fold(NFKC(name)))` with `.` replaced by `,`, where `fold` is Unicode full case
/// folding (`ß` → `ss`, `ς` → `σ`, `İ` → `i̇`; the Turkic-specific `I` → `ı` mapping is not
/// applied, so `ı` and `i` stay different). Foundation's
/// `folding(options: .caseInsensitive, locale: nil)` implements full case folding except for
/// Cherokee, whose lower-case letters Unicode folds to upper case; that mapping is applied here.
/// A web app or backend sharing the directory must derive keys the same way (see
/// `docs/usernames.md`, which gives an equivalent ICU/Python recipe).
public enum UsernameKey {
    /// The key for `name`. Pure; does not validate `name` (see ``UsernameRules``).
    public static func derive(from name: String) -> String {
        let compatible = name.precomposedStringWithCompatibilityMapping
        let folded = foldCherokee(compatible.folding(options: .caseInsensitive, locale: nil))
        let normalised = folded.precomposedStringWithCompatibilityMapping
        return normalised.replacingOccurrences(of: ".", with: ",")
    }

    /// Unicode case folding maps Cherokee small letters to the capital ones (the reverse of
    /// every other bicameral script).
    private static func foldCherokee(_ text: String) -> String {
        var scalars = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0xAB70...0xABBF:
                scalars.append(Unicode.Scalar(scalar.value - 0xAB70 + 0x13A0)!)
            case 0x13F8...0x13FD:
                scalars.append(Unicode.Scalar(scalar.value - 0x13F8 + 0x13F0)!)
            default:
                scalars.append(scalar)
            }
        }
        return String(scalars)
    }
}
