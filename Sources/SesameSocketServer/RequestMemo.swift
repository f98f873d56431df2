import SesameLocalAPI

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The last request line a connection decoded, with its `id` cut out, and the call it decoded
/// to. A client asking the same thing again (`getIdToken` before each of its HTTP calls) sends
/// the same line but for the id: such a line is recognised by two byte comparisons and the id
/// between them, and skips the parse, the method lookup and the parameters.
///
///     {"jsonrpc":"2.0","id":  41  ,"method":"getIdToken","params":{"minValidity":60}}
///     └──── before ──────┘  id  └──────────────────── after ───────────────────────┘
///
/// It is safe because a call depends only on the line's bytes and the connection's role (see
/// ``LocalAPIDispatcher/decode(_:caller:)``), and because any id token that fits between
/// `before` and `after` leaves the rest of the line meaning what it meant: the byte after a
/// parsed value is white space, `,` or `}`. Only ids the memo can check in a glance count: an
/// integer of at most 18 digits, or a string of printable ASCII without escapes. Any other line
/// is decoded in full (and may become the new memo). Only the methods answered on the event
/// loop are remembered (`hello`, `getState`, `getIdToken`, `subscribe`, `unsubscribe`): their
/// lines carry no password, link or code, so the memo never keeps a secret in memory longer
/// than its request. A class: checking it costs one retain.
final class RequestMemo {
    private let before: [UInt8]
    private let after: [UInt8]
    let typed: LocalAPIDispatcher.TypedCall
    /// The role the line was decoded for: after a grant or a revocation the line is decoded again.
    let role: LocalAPIRole

    /// Remembers `line`, whose id lies at `id`, as decoded to `typed`.
    init(line: UnsafeRawBufferPointer, id: Range<Int>, typed: LocalAPIDispatcher.TypedCall, role: LocalAPIRole) {
        self.role = role
        before = Array(line[..<id.lowerBound])
        after = Array(line[id.upperBound...])
        self.typed = typed
    }

    /// Where the id is in `line`, when `line` is the remembered request with another id of
    /// the kinds above; nil otherwise.
    func id(in line: UnsafeRawBufferPointer) -> Range<Int>? {
        let count = line.count
        guard count > before.count + after.count,
            Self.equal(line, at: 0, before),
            Self.equal(line, at: count - after.count, after)
        else { return nil }
        let id = before.count..<(count - after.count)
        return Self.isSimpleID(UnsafeRawBufferPointer(rebasing: line[id])) ? id : nil
    }

    private static func equal(_ line: UnsafeRawBufferPointer, at offset: Int, _ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { expected in
            expected.isEmpty || memcmp(line.baseAddress! + offset, expected.baseAddress!, expected.count) == 0
        }
    }

    /// `-?(0|[1-9][0-9]*)` with at most 18 digits, or `"…"` of printable ASCII without `"` or `\`.
    static func isSimpleID(_ token: UnsafeRawBufferPointer) -> Bool {
        guard let first = token.first else { return false }
        if first == UInt8(ascii: "\"") {
            guard token.count >= 2, token[token.count - 1] == UInt8(ascii: "\"") else { return false }
            for byte in token.dropFirst().dropLast()
            where byte < 0x20 || byte > 0x7E || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") {
                return false
            }
            return true
        }
        let digits = first == UInt8(ascii: "-") ? token.dropFirst() : token[...]
        guard let lead = digits.first, digits.count <= 18 else { return false }
        if lead == UInt8(ascii: "0") { return digits.count == 1 }
        return digits.allSatisfy { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
    }
}
