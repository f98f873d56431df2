import Foundation
import SesameTesting

#if canImport(Glibc)
import Glibc
#endif

/// A datagram socket standing in for systemd's `NOTIFY_SOCKET`.
final class NotifyListener: @unchecked Sendable {
    let path: String
    private let fd: Int32
    private var received: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue), 0)
        guard fd >= 0 else { throw HarnessError("socket: \(errno)") }
        let bound = withUnixAddress(path) { bind(fd, $0, $1) }
        guard bound == 0 else { throw HarnessError("bind \(path): \(errno)") }
    }

    deinit { close(fd) }

    /// Every datagram received so far (reads what is waiting, without blocking).
    func messages() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let n = recv(fd, &buffer, buffer.count, Int32(MSG_DONTWAIT))
            if n <= 0 { break }
            received.append(String(decoding: buffer[0..<n], as: UTF8.self))
        }
        return received
    }

    /// Waits until a datagram contains `text`.
    func waitFor(_ text: String) async throws {
        try await eventually("systemd hears \(text)") { messages().contains { $0.contains(text) } }
    }
}
