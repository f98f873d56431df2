import Foundation
import SesameCore
import Testing

@Suite("Username rules")
struct UsernameRulesTests {
    let rules = UsernameRules(reserved: ["admin", "root", "support", "Ｓｙｓｔｅｍ"])

    struct Accepted: CustomTestStringConvertible, Sendable {
        let input: String
        let name: String
        let key: String
        var testDescription: String { "\(input) → \(key)" }
    }

    static let accepted: [Accepted] = [
        .init(input: "scooby", name: "scooby", key: "scooby"),
        .init(input: "Scooby", name: "Scooby", key: "scooby"),
        .init(input: "NASA_Fan", name: "NASA_Fan", key: "nasa_fan"),
        .init(input: "ann.lee", name: "ann.lee", key: "ann,lee"),
        .init(input: "Ann.Lee.", name: "Ann.Lee.", key: "ann,lee,"),
        .init(input: "a-b_c.d", name: "a-b_c.d", key: "a-b_c,d"),
        .init(input: "007", name: "007", key: "007"),
        // ß folds to ss (full case folding, not lower-casing).
        .init(input: "Straße", name: "Straße", key: "strasse"),
        .init(input: "STRASSE", name: "STRASSE", key: "strasse"),
        .init(input: "ẞig", name: "ẞig", key: "ssig"),
        // é composed and decomposed are one name (NFC) and one key.
        .init(input: "Ren\u{00E9}e", name: "Ren\u{00E9}e", key: "ren\u{00E9}e"),
        .init(input: "Rene\u{0301}e", name: "Ren\u{00E9}e", key: "ren\u{00E9}e"),
        // Turkish: dotted capital İ folds to i + U+0307; dotless ı stays ı.
        .init(input: "İpek", name: "İpek", key: "i\u{0307}pek"),
        .init(input: "kırmızı", name: "kırmızı", key: "kırmızı"),
        .init(input: "KIRMIZI", name: "KIRMIZI", key: "kirmizi"),
        // Fullwidth letters become ASCII under NFKC.
        .init(input: "Ｊｏｈｎ", name: "Ｊｏｈｎ", key: "john"),
        // Ligature ﬁ becomes fi under NFKC.
        .init(input: "ﬁona", name: "ﬁona", key: "fiona"),
        // Greek: final sigma folds to sigma.
        .init(input: "ΟΔΥΣΣΕΥΣ", name: "ΟΔΥΣΣΕΥΣ", key: "οδυσσευσ"),
        .init(input: "οδυσσευς", name: "οδυσσευς", key: "οδυσσευσ"),
        // Cyrillic alone is fine.
        .init(input: "Иван", name: "Иван", key: "иван"),
        // Han, Hiragana and Katakana may mix; so may Han with Latin.
        .init(input: "東京たワー", name: "東京たワー", key: "東京たワー"),
        .init(input: "山田taro", name: "山田taro", key: "山田taro"),
        .init(input: "김민준", name: "김민준", key: "김민준"),
        // Digits of other scripts are numbers (N).
        .init(input: "عمر٧٧", name: "عمر٧٧", key: "عمر٧٧"),
        // Devanagari with a spacing mark.
        .init(input: "हिन्दी", name: "हिन्दी", key: "हिन्दी"),
        // Cherokee folds to its capital letters.
        .init(input: "ꭰꭱꭲ", name: "ꭰꭱꭲ", key: "ᎠᎡᎢ"),
        .init(input: "ᎠᎡᎢ", name: "ᎠᎡᎢ", key: "ᎠᎡᎢ"),
        // Lengths are counted in Unicode scalars after NFC.
        .init(input: "abc", name: "abc", key: "abc"),
        .init(
            input: String(repeating: "x", count: 32), name: String(repeating: "x", count: 32),
            key: String(repeating: "x", count: 32)),
        .init(input: "e\u{0301}e\u{0301}e\u{0301}", name: "\u{00E9}\u{00E9}\u{00E9}", key: "\u{00E9}\u{00E9}\u{00E9}"),
        // Old Cyrillic letter variants fold to the ordinary letters.
        .init(input: "\u{1C80}\u{1C82}\u{1C83}", name: "\u{1C80}\u{1C82}\u{1C83}", key: "вос"),
        // A capital from Unicode 16 (Cyrillic TJE) still folds.
        .init(input: "\u{1C89}аб", name: "\u{1C89}аб", key: "\u{1C8A}аб"),
        // Kelvin sign is Latin K.
        .init(input: "\u{212A}im", name: "\u{212A}im", key: "kim"),
    ]

    @Test("accepted names and their keys", arguments: accepted)
    func acceptsAndDerivesKey(_ row: Accepted) throws {
        let username = try #require(rules.validate(row.input).username, "\(rules.validate(row.input))")
        #expect(username.name == row.name)
        #expect(username.key == row.key)
        #expect(UsernameKey.derive(from: row.input) == row.key)
    }

    struct Refused: CustomTestStringConvertible, Sendable {
        let input: String
        let rejection: UsernameRejection
        var testDescription: String { "\(input.debugDescription) → \(rejection)" }
    }

    static let refused: [Refused] = [
        .init(input: "", rejection: .tooShort(count: 0)),
        .init(input: "ab", rejection: .tooShort(count: 2)),
        // Two grapheme clusters but decomposed: still 2 scalars after NFC.
        .init(input: "e\u{0301}e\u{0301}", rejection: .tooShort(count: 2)),
        .init(input: String(repeating: "x", count: 33), rejection: .tooLong(count: 33)),
        // 11 decomposed é (22 scalars) + 11 x = 22 after NFC: fine; 17 é + 16 x = 33: too long.
        .init(
            input: String(repeating: "e\u{0301}", count: 17) + String(repeating: "x", count: 16),
            rejection: .tooLong(count: 33)),
        .init(input: "ann@example.com", rejection: .disallowedCharacter("@")),
        .init(input: "ann lee", rejection: .disallowedCharacter(" ")),
        .init(input: "ann+lee", rejection: .disallowedCharacter("+")),
        .init(input: "ann,lee", rejection: .disallowedCharacter(",")),
        .init(input: "ann/lee", rejection: .disallowedCharacter("/")),
        .init(input: "smile😀", rejection: .disallowedCharacter("😀")),
        .init(input: "heart❤️", rejection: .disallowedCharacter("❤")),
        // Keycap emoji: digit + VS16 (default ignorable) + enclosing keycap.
        .init(input: "1\u{FE0F}\u{20E3}ab", rejection: .disallowedCharacter("\u{FE0F}")),
        .init(input: "ab\u{20DD}c", rejection: .disallowedCharacter("\u{20DD}")),
        .init(input: "a\u{200D}bc", rejection: .disallowedCharacter("\u{200D}")),
        .init(input: "abc\u{0000}", rejection: .disallowedCharacter("\u{0000}")),
        .init(input: "tab\tbed", rejection: .disallowedCharacter("\t")),
        // Latin p + Cyrillic а (U+0430) + Latin ypal.
        .init(input: "p\u{0430}ypal", rejection: .mixedScripts([.latin, .cyrillic])),
        // Latin with Greek omicron.
        .init(input: "g\u{03BF}\u{03BF}gle", rejection: .mixedScripts([.latin, .greek])),
        .init(input: "ΑБВ", rejection: .mixedScripts([.greek, .cyrillic])),
        // Fullwidth Latin is still Latin.
        .init(input: "ｐ\u{0430}ｙ", rejection: .mixedScripts([.latin, .cyrillic])),
        // ﷺ is a letter whose NFKC form contains spaces: it cannot be a key.
        .init(input: "ab\u{FDFA}", rejection: .unrepresentableKey),
        .init(input: "admin", rejection: .reserved),
        .init(input: "ADMIN", rejection: .reserved),
        .init(input: "ａｄｍｉｎ", rejection: .reserved),
        .init(input: "Root", rejection: .reserved),
        .init(input: "system", rejection: .reserved),
    ]

    @Test("refused names", arguments: refused)
    func refuses(_ row: Refused) {
        #expect(rules.validate(row.input) == .rejected(row.rejection))
    }

    @Test("names that differ only by case, width or normal form share a key")
    func collisions() {
        let variants = ["Straße", "STRASSE", "strasse", "Ｓｔｒａｓｓｅ", "StraSSe"]
        let keys = Set(variants.map { rules.validate($0).username?.key })
        #expect(keys == ["strasse"])
        #expect(UsernameKey.derive(from: "kırmızı") != UsernameKey.derive(from: "kirmizi"))
    }

    @Test("every letter's key is stable under case folding and derivation is idempotent")
    func foldingIsComplete() {
        var unstable: [String] = []
        for value in UInt32(0)..<0x20000 {
            guard let scalar = Unicode.Scalar(value), scalar.properties.isAlphabetic else { continue }
            let key = UsernameKey.derive(from: String(scalar))
            if key.unicodeScalars.contains(where: { $0.properties.changesWhenCaseFolded })
                || UsernameKey.derive(from: key) != key
            {
                unstable.append(String(value, radix: 16))
            }
        }
        #expect(unstable == [])
    }

    @Test("rejections map onto wire reasons")
    func reasons() {
        #expect(UsernameRejection.reserved.reason == .usernameReserved)
        #expect(UsernameRejection.tooShort(count: 1).reason == .invalidUsername)
        #expect(UsernameRejection.mixedScripts([.latin, .cyrillic]).authError.reason == .invalidUsername)
        #expect(UsernameRejection.disallowedCharacter("@").authError.reason == .invalidUsername)
    }

    @Test("an empty reserved list reserves nothing")
    func noReserved() {
        #expect(UsernameRules().validate("admin").username?.key == "admin")
    }

    @Test("keys never contain a dot")
    func noDots() {
        #expect(UsernameKey.derive(from: "a.b.c") == "a,b,c")
        #expect(rules.validate("...").username?.key == ",,,")
    }
}
