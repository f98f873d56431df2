import SesameLocalAPI

/// RTDB push keys: 20 characters, 8 encoding the time (so keys sort by creation) and 12 random.
enum PushIdentifier {
    static let alphabet = Array("-0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ_abcdefghijklmnopqrstuvwxyz")

    static func make(milliseconds: Int) -> String {
        let time = (0..<8).map { alphabet[(milliseconds >> (6 * (7 - $0))) & 63] }
        return String(time) + RandomIdentifier.make(12, from: alphabet)
    }
}
