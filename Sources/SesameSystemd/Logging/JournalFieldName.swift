/// Turns swift-log metadata keys into journal field names.
///
/// Journal field names contain only `A`–`Z`, `0`–`9` and `_`, must not start with `_` (those
/// are trusted fields set by journald) or a digit, and are at most 64 bytes. Keys are
/// upper-cased, every other character becomes `_`, and a prefix (e.g. `SESAME_`) keeps them
/// apart from journald's own fields: `request.id` → `SESAME_REQUEST_ID`.
public enum JournalFieldName {
    /// The longest field name journald accepts.
    public static let maximumLength = 64

    /// The field name for metadata `key` under `prefix`.
    /// - Parameter prefix: starts with `A`–`Z` and uses only the allowed characters (it is
    ///   escaped the same way otherwise, and `X` is put before it if it would start wrongly).
    public static func escaping(_ key: String, prefix: String) -> String {
        var name = escape(prefix) + escape(key)
        if let first = name.utf8.first, !(UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(first) {
            name = "X" + name
        }
        if name.isEmpty { name = "X" }
        return String(name.prefix(maximumLength))
    }

    private static func escape(_ text: String) -> String {
        String(
            decoding: text.utf8.map { byte -> UInt8 in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"):
                    byte
                case UInt8(ascii: "a")...UInt8(ascii: "z"): byte - 32
                default: UInt8(ascii: "_")
                }
            }, as: UTF8.self)
    }
}
