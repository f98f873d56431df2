import SesameLocalAPI

/// RTDB push keys: 20 characters, 8 encoding the time (so keys sort by creation) and 12 random.
enum PushIdentifier {
    static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")

    static func make(milliseconds: Int) -> String {
        var time = milliseconds
        var timeChars = [Character](repeating: "-", count: 8)
        for i in stride(from: 7, through: 0, by: -1) {
            timeChars[i] = alphabet[time % 64]
            time /= 64
        }
        return String(timeChars) + RandomIdentifier.make(12, from: alphabet)
    }
}
