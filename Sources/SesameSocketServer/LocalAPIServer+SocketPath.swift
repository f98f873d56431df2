import Foundation

#if canImport(Glibc)
import Glibc
#endif

extension LocalAPIServer {
    /// Refuses to take over a socket another live process listens on; removes a stale one.
    static func prepareSocketPath(_ path: String) throws {
        guard path.utf8.count < 108 else {
            throw LocalAPIServerError(
                message: "The socket path \(path) is longer than 107 bytes; choose a shorter one.")
        }
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty, !FileManager.default.fileExists(atPath: directory) {
            do {
                try FileManager.default.createDirectory(
                    atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o755])
            } catch {
                throw LocalAPIServerError(
                    message: "Cannot create the socket's directory \(directory): \(error.localizedDescription)")
            }
        }
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFSOCK else {
            throw LocalAPIServerError(
                message: "\(path) exists and is not a socket; remove it or choose another --socket path.")
        }
        if isListening(path) {
            throw LocalAPIServerError(message: "Another daemon is already listening on \(path).")
        }
        unlink(path)
    }

    private static func isListening(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in bytes.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }
}
