/// Random identifiers in the emulator's formats.
enum RandomIdentifier {
    static let alphanumerics = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
    static let urlSafe = alphanumerics + ["-", "_"]

    /// 28 characters of `[A-Za-z0-9]`, like the emulator's `localId`s.
    static func uid() -> String { make(28, from: alphanumerics) }

    /// 54 characters of `[A-Za-z0-9_-]`, like the emulator's oobCodes.
    static func oobCode() -> String { make(54, from: urlSafe) }

    static func make(_ count: Int, from alphabet: [Character]) -> String {
        var generator = SystemRandomNumberGenerator()
        return String((0..<count).map { _ in alphabet[Int(generator.next(upperBound: UInt(alphabet.count)))] })
    }
}
