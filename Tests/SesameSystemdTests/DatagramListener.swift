import Foundation

/// A bound `AF_UNIX`/`SOCK_DGRAM` socket standing in for the service manager's notify socket.
final class DatagramListener {
    /// The address to put in `NOTIFY_SOCKET` (a path, or `@name` when abstract).
    let address: String
    private let fd: Int32
    private let directory: String?

    init(abstract: Bool) throws {
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw POSIXError(.EBADF) }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var name: [UInt8]
        if abstract {
            let tag = "sesame-notify-test-\(getpid())-\(UInt32.random(in: .min ... .max))"
            address = "@" + tag
            name = [0] + Array(tag.utf8)
            directory = nil
        } else {
            var template = Array("/tmp/sesame-notify-XXXXXX".utf8CString)
            _ = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
            let made = String(
                decoding: template.prefix(while: { $0 != 0 }).map { UInt8(bitPattern: $0) }, as: UTF8.self)
            directory = made
            address = made + "/notify.sock"
            name = Array(address.utf8)
        }
        var socketAddress = sockaddr_un()
        socketAddress.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &socketAddress.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sockaddr_un>.offset(of: \.sun_path)! + name.count + (abstract ? 0 : 1))
        let bound = withUnsafePointer(to: &socketAddress) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) }
        }
        guard bound == 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EINVAL) }
    }

    /// The next datagram as text (waits up to 5 s).
    func receive() throws -> String {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard count >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        return String(decoding: buffer[0..<count], as: UTF8.self)
    }

    deinit {
        close(fd)
        if let directory { try? FileManager.default.removeItem(atPath: directory) }
    }
}
