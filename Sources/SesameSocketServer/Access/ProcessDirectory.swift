#if canImport(Glibc)
import Glibc
#endif

/// One process's `/proc/PID` directory, opened once: every read goes through the directory's
/// descriptor, so once the process is gone the reads fail (`ESRCH`) rather than reach another
/// process that took its pid.
protocol ProcessDirectory {
    /// A small text file of the directory (`stat`, `cgroup`, `status`, `mountinfo`,
    /// `root/.flatpak-info`); nil when it cannot be read.
    func read(_ name: String) -> String?
    /// Where a link of the directory points (`exe`).
    func readLink(_ name: String) -> String?
    /// The identity of the file a name of the directory leads to, links followed (`exe`,
    /// `ns/mnt`).
    func identity(_ name: String) -> FileIdentity?
}

/// Opens processes' directories and tells the time the way `/proc/PID/stat` does.
protocol ProcessSource: Sendable {
    func directory(of pid: Int32) -> (any ProcessDirectory)?
    /// The boot-time clock now, in clock ticks (the unit of a process's start time).
    func bootTicks() -> UInt64
}

/// The system's `/proc`.
struct SystemProcessSource: ProcessSource {
    func directory(of pid: Int32) -> (any ProcessDirectory)? {
        let fd = open("/proc/\(pid)", O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        return SystemProcessDirectory(descriptor: fd)
    }

    func bootTicks() -> UInt64 {
        var now = timespec()
        clock_gettime(CLOCK_BOOTTIME, &now)
        let hertz = UInt64(max(1, sysconf(Int32(_SC_CLK_TCK))))
        return UInt64(now.tv_sec) * hertz + UInt64(now.tv_nsec) * hertz / 1_000_000_000
    }
}

/// A `/proc/PID` directory held open by its descriptor, closed when released.
final class SystemProcessDirectory: ProcessDirectory {
    private let descriptor: Int32
    /// Bytes read from one file at most.
    private static let limit = 64 * 1024

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    func read(_ name: String) -> String? {
        let fd = openat(descriptor, name, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < Self.limit {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
            if count < 0 { return nil }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    func readLink(_ name: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlinkat(descriptor, name, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    func identity(_ name: String) -> FileIdentity? {
        var info = stat()
        guard fstatat(descriptor, name, &info, 0) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}

extension FileIdentity {
    /// The identity of the file at `path` as the daemon sees it now, links followed.
    static func of(path: String) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }
}
