#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds `sockaddr_un` values for filesystem and abstract (`@name`) Unix socket addresses.
enum UnixSocketAddress {
    /// The address and its length for `path`; a leading `@` means the abstract namespace.
    /// - Returns: nil when the path does not fit in `sun_path`.
    static func make(_ path: String) -> (sockaddr_un, socklen_t)? {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(path.utf8)
        let abstract = bytes.first == UInt8(ascii: "@")
        if abstract { bytes[0] = 0 }
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        // A filesystem path needs room for its terminating NUL; an abstract name does not.
        guard bytes.count + (abstract ? 0 : 1) <= capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            raw.copyBytes(from: bytes)
        }
        let offset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path)!
        let length = offset + bytes.count + (abstract ? 0 : 1)
        return (address, socklen_t(length))
    }
}
