/// Lines and fields of `/proc`'s text files, cut as bytes. A peer is inspected on the event loop
/// as it connects; cutting these texts as Swift strings (character by character, a substring a
/// field) cost the daemon about 300 µs of CPU a connection, most of it in `mountinfo`
/// (docs/BENCHMARKS.md, "What a new connection costs").
enum ProcText {
    typealias Bytes = UnsafeBufferPointer<UInt8>

    /// `body` over the UTF-8 bytes of `text` (a native string's own storage: no copy).
    static func withBytes<Result>(_ text: String, _ body: (Bytes) -> Result) -> Result {
        var text = text
        return text.withUTF8(body)
    }

    /// The lines of `bytes` without their newlines; empty lines are left out.
    static func lines(_ bytes: Bytes) -> [Slice<Bytes>] {
        bytes.split(separator: UInt8(ascii: "\n"))
    }

    /// The fields of `line` between spaces or tabs (a run of them counts as one), at most
    /// `limit + 1`: the last holds the rest of the line.
    static func fields(_ line: Slice<Bytes>, limit: Int = .max) -> [Slice<Bytes>] {
        line.split(maxSplits: limit) { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\t") }
    }

    static func string(_ bytes: Slice<Bytes>) -> String {
        String(decoding: bytes, as: UTF8.self)
    }

    static func equals(_ bytes: Slice<Bytes>, _ text: StaticString) -> Bool {
        bytes.elementsEqual(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }
}
