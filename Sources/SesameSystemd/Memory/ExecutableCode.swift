#if canImport(Glibc)
import Glibc
#endif

/// The pages of this program's own machine code that the process has mapped.
///
/// Start-up runs code that is not needed again (the configuration parser, the keyring's key
/// derivation, the argument parser), and the kernel maps code around each page it runs
/// (fault-around, 64 KiB at a time), so a started daemon holds most of its executable's code
/// segment: about 10 MB, counted as its private memory because no other process maps this
/// binary. ``releaseUnused()`` drops the process's mappings of that segment: the pages stay in
/// the page cache (clean, reclaimable, the file's own bytes) and the ones the daemon runs
/// again come back on first use, a minor fault each.
///
/// Only a mapping that is executable, read-only, private, backed by the executable file and
/// holds no page of its own (`Anonymous: 0 kB` in `/proc/self/smaps`: nothing was ever written
/// to it, so dropping it loses nothing) is released. Data and relocated segments are never
/// touched. Linux only; elsewhere it does nothing.
public enum ExecutableCode {
    /// What ``releaseUnused()`` did.
    public struct Release: Sendable, Equatable {
        /// Mappings released.
        public var mappings: Int
        /// Resident bytes of them before.
        public var residentBytes: Int
    }

    /// Drops this process's mappings of its executable's code segment (see the type's notes).
    /// - Returns: what was released; zero mappings when there was nothing safe to release.
    @discardableResult
    public static func releaseUnused() -> Release {
        #if os(Linux)
        guard let executable = executablePath(), let smaps = readFile("/proc/self/smaps") else {
            return Release(mappings: 0, residentBytes: 0)
        }
        var release = Release(mappings: 0, residentBytes: 0)
        for mapping in Mapping.parse(smaps) where mapping.isReleasableCode(of: executable) {
            let length = Int(mapping.end - mapping.start)
            guard let start = UnsafeMutableRawPointer(bitPattern: mapping.start),
                madvise(start, length, MADV_RANDOM) == 0, madvise(start, length, MADV_DONTNEED) == 0
            else { continue }
            release.mappings += 1
            release.residentBytes += mapping.residentKiB * 1024
        }
        return release
        #else
        return Release(mappings: 0, residentBytes: 0)
        #endif
    }

    /// One mapping of `/proc/self/smaps`, with the fields the release needs.
    struct Mapping: Equatable {
        var start: UInt
        var end: UInt
        var permissions: String
        var path: String
        var residentKiB = 0
        var anonymousKiB = 0

        func isReleasableCode(of executable: String) -> Bool {
            permissions == "r-xp" && path == executable && anonymousKiB == 0 && end > start
        }

        /// Parses smaps text: a header line per mapping (`start-end perms offset dev inode
        /// path`), then `Name: value kB` lines.
        static func parse(_ text: String) -> [Mapping] {
            var mappings: [Mapping] = []
            for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
                let fields = line.split(separator: " ", omittingEmptySubsequences: true)
                guard let first = fields.first else { continue }
                if first.hasSuffix(":") {
                    guard !mappings.isEmpty, fields.count >= 2, let value = Int(fields[1]) else { continue }
                    if first == "Rss:" { mappings[mappings.count - 1].residentKiB = value }
                    if first == "Anonymous:" { mappings[mappings.count - 1].anonymousKiB = value }
                    continue
                }
                let bounds = first.split(separator: "-")
                guard fields.count >= 5, bounds.count == 2, let start = UInt(bounds[0], radix: 16),
                    let end = UInt(bounds[1], radix: 16)
                else { continue }
                let path = fields.count >= 6 ? fields[5...].joined(separator: " ") : ""
                mappings.append(Mapping(start: start, end: end, permissions: String(fields[1]), path: path))
            }
            return mappings
        }
    }

    #if os(Linux)
    private static func executablePath() -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func readFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
    #endif
}
