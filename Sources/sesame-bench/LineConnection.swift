import Foundation

#if canImport(Glibc)
import Glibc
#endif

struct BenchError: Error, CustomStringConvertible {
    var description: String
}

/// A blocking Unix-socket connection that sends a line and reads one line back.
final class LineConnection {
    let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw BenchError(description: "socket failed") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            close(fd)
            throw BenchError(description: "connect \(path) failed: \(errno)")
        }
    }

    deinit { close(fd) }

    func roundTrip(_ line: String) throws -> String {
        let bytes = Array((line + "\n").utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
            guard n > 0 else { throw BenchError(description: "write failed") }
            sent += n
        }
        return try readLine()
    }

    func readLine() throws -> String {
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            if let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                let line = String(decoding: buffer[..<newline], as: UTF8.self)
                buffer.removeSubrange(...newline)
                return line
            }
            let n = read(fd, &chunk, chunk.count)
            guard n > 0 else { throw BenchError(description: "connection closed") }
            buffer.append(contentsOf: chunk[..<n])
        }
    }
}

/// The baseline: accepts connections and answers every line with a line of `replyLength` bytes,
/// one thread per connection, no parsing.
final class EchoServer: @unchecked Sendable {
    let fd: Int32
    var replyLength = 200

    init(path: String) throws {
        unlink(path)
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, byte) in path.utf8.enumerated() where i < raw.count - 1 { raw[i] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(fd, 128) == 0 else { throw BenchError(description: "echo bind failed") }
        Thread.detachNewThread { [self] in
            while true {
                let client = accept(fd, nil, nil)
                if client < 0 { return }
                Thread.detachNewThread { [self] in serve(client) }
            }
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var reply = [UInt8](repeating: UInt8(ascii: "x"), count: max(1, replyLength))
        reply[reply.count - 1] = UInt8(ascii: "\n")
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let n = read(client, &chunk, chunk.count)
            if n <= 0 { return }
            let lines = chunk[..<n].reduce(0) { $0 + ($1 == UInt8(ascii: "\n") ? 1 : 0) }
            for _ in 0..<lines {
                if reply.withUnsafeBytes({ write(client, $0.baseAddress, $0.count) }) <= 0 { return }
            }
        }
    }
}

/// A launched helper process with its output in files.
final class Launched {
    let process = Process()
    let log: String

    static func start(_ executable: String, _ arguments: [String], log: String) throws -> Launched {
        let launched = Launched(log: log)
        FileManager.default.createFile(atPath: log + ".out", contents: nil)
        FileManager.default.createFile(atPath: log + ".err", contents: nil)
        launched.process.executableURL = URL(fileURLWithPath: executable)
        launched.process.arguments = arguments
        launched.process.standardOutput = FileHandle(forWritingAtPath: log + ".out")
        launched.process.standardError = FileHandle(forWritingAtPath: log + ".err")
        try launched.process.run()
        return launched
    }

    private init(log: String) { self.log = log }

    func waitForLines(containing text: String, count: Int) throws -> [String] {
        for _ in 0..<200 {
            let lines = ((try? String(contentsOfFile: log + ".out", encoding: .utf8)) ?? "")
                .split(separator: "\n").map(String.init).filter { $0.contains(text) }
            if lines.count >= count { return lines }
            usleep(50_000)
        }
        throw BenchError(description: "\(process.executableURL?.path ?? "") did not start")
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
    }
}
