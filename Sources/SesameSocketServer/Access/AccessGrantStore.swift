import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// The `always` grants, kept in one file of the state directory (`access-grants.json`, mode
/// 0600): per uid and executable, with the file's identity.
struct AccessGrantStore: Sendable {
    let path: String

    /// The grants the file holds; none when it is missing or unreadable (a damaged file asks
    /// again rather than grants anything).
    func load() -> [AccessGrant] {
        guard let data = FileManager.default.contents(atPath: path) else { return [] }
        let grants = (try? JSONDecoder.grants.decode([AccessGrant].self, from: data)) ?? []
        return grants.filter { $0.remember == .always }
    }

    /// Writes `grants` whole: a temporary file beside it, then renamed over it.
    func save(_ grants: [AccessGrant]) throws {
        let data = try JSONEncoder.grants.encode(grants)
        let temporary = path + ".new"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard fd >= 0 else { throw AccessGrantStoreError(path: temporary, errno: errno) }
        let written = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        let synced = fsync(fd)
        close(fd)
        guard written == data.count, synced == 0, rename(temporary, path) == 0 else {
            unlink(temporary)
            throw AccessGrantStoreError(path: path, errno: errno)
        }
    }
}

struct AccessGrantStoreError: Error, CustomStringConvertible {
    var path: String
    var errno: Int32
    var description: String { "Cannot write the access grants to \(path): \(String(cString: strerror(errno)))" }
}

extension JSONEncoder {
    fileprivate static var grants: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.sortedKeys]
        return encoder
    }
}

extension JSONDecoder {
    fileprivate static var grants: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
