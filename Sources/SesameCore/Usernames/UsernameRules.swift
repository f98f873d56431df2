import Foundation

/// The rules a username must follow, and the reserved names (compared by key).
///
/// Pure: no I/O. A name is valid when, after NFC normalisation, it has 3 to 32 Unicode scalars,
/// each a letter (general category L), a non-enclosing mark (Mn, Mc), a digit or other number
/// (N), or one of `_`, `-`, `.`; it contains no default-ignorable code point (joiners,
/// variation selectors); its letters do not mix Latin, Greek and Cyrillic (see
/// ``UsernameScript``); and its key (``UsernameKey``) can be stored by every username directory. `@` is
/// never valid, so an identifier containing `@` is always an email.
public struct UsernameRules: Sendable, Hashable {
    /// The fewest Unicode scalars a name may have (after NFC).
    public static let minimumLength = 3
    /// The most Unicode scalars a name may have (after NFC).
    public static let maximumLength = 32
    /// The longest key (UTF-8 bytes) every directory stores (the strictest: Realtime Database).
    static let maximumKeyBytes = 768

    /// The keys of the reserved names.
    public let reservedKeys: Set<String>

    /// - Parameter reserved: names nobody may claim (`usernames.reserved`), as typed; they are
    ///   compared by key, so `Admin` also reserves `ADMIN` and `ａｄｍｉｎ`.
    public init(reserved: [String] = []) {
        reservedKeys = Set(reserved.map(UsernameKey.derive(from:)))
    }

    /// Checks `candidate` and derives its key.
    public func validate(_ candidate: String) -> UsernameValidation {
        let name = candidate.precomposedStringWithCanonicalMapping
        let count = name.unicodeScalars.count
        if count < Self.minimumLength { return .rejected(.tooShort(count: count)) }
        if count > Self.maximumLength { return .rejected(.tooLong(count: count)) }
        if let bad = name.unicodeScalars.first(where: { !Self.isAllowed($0) }) {
            return .rejected(.disallowedCharacter(bad))
        }
        let key = UsernameKey.derive(from: name)
        let scripts = Self.confusableScripts(in: key)
        if scripts.count > 1 { return .rejected(.mixedScripts(scripts)) }
        guard Self.isStorableKey(key) else { return .rejected(.unrepresentableKey) }
        if reservedKeys.contains(key) { return .rejected(.reserved) }
        return .valid(Username(name: name, key: key))
    }

    /// Whether `scalar` may appear in a username.
    static func isAllowed(_ scalar: Unicode.Scalar) -> Bool {
        if scalar == "_" || scalar == "-" || scalar == "." { return true }
        let properties = scalar.properties
        if properties.isDefaultIgnorableCodePoint { return false }
        switch properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .nonspacingMark, .spacingMark,
            .decimalNumber, .letterNumber, .otherNumber:
            return true
        default:
            return false
        }
    }

    /// The confusable scripts whose letters occur in `text`, sorted.
    static func confusableScripts(in text: String) -> [UsernameScript] {
        Set(
            text.unicodeScalars.compactMap { scalar -> UsernameScript? in
                guard scalar.properties.isAlphabetic else { return nil }
                return UsernameScript(scalar)
            }
        ).sorted()
    }

    /// Whether every directory can store `key` (the strictest rules, Realtime Database's): not empty, at most 768 bytes, and free of
    /// `. $ # [ ] /`, `@`, whitespace and control characters (NFKC can introduce some of
    /// these, e.g. `⑴` → `(1)` is fine but `ﷺ` expands to words with spaces).
    static func isStorableKey(_ key: String) -> Bool {
        guard !key.isEmpty, key.utf8.count <= maximumKeyBytes else { return false }
        return key.unicodeScalars.allSatisfy { scalar in
            switch scalar {
            case ".", "$", "#", "[", "]", "/", "@": return false
            default:
                let properties = scalar.properties
                return !properties.isWhitespace && properties.generalCategory != .control
                    && properties.generalCategory != .format
            }
        }
    }
}
