import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one call into `sd_journal_sendv` (the variadic `sd_journal_send` cannot be imported).
enum JournalSender {
    /// Sends `NAME=value` items as one entry; values may contain any bytes, newlines included.
    /// - Returns: 0 or a negative errno.
    static func send(_ items: [[UInt8]]) -> Int32 {
        let buffers = items.map { item -> UnsafeMutableRawBufferPointer in
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(item.count, 1), alignment: 1)
            buffer.copyBytes(from: item)
            return buffer
        }
        defer { buffers.forEach { $0.deallocate() } }
        var vectors = zip(buffers, items).map { iovec(iov_base: $0.0.baseAddress, iov_len: $0.1.count) }
        return vectors.withUnsafeMutableBufferPointer { sd_journal_sendv($0.baseAddress, Int32($0.count)) }
    }
}
