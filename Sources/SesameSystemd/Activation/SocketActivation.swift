import CSystemd

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The sockets the service manager passed to this process (sd_listen_fds(3)).
///
/// Read from an environment dictionary (`LISTEN_PID`, `LISTEN_FDS`, `LISTEN_FDNAMES`) rather
/// than the global environment, so tests can inject it. Descriptors start at 3
/// (`SD_LISTEN_FDS_START`) and are passed only when `LISTEN_PID` is this process. Reading them
/// sets `FD_CLOEXEC` on each, as sd_listen_fds does; the caller should drop the `LISTEN_*`
/// variables before starting children.
public struct SocketActivation: Sendable {
    /// One passed descriptor and its name (`FileDescriptorName=`, default `"unknown"`).
    public struct Descriptor: Sendable, Hashable {
        public var fd: Int32
        public var name: String
    }

    /// Every passed descriptor, in order; empty when none were passed to this process.
    public let descriptors: [Descriptor]

    /// Reads the passed descriptors from `environment`.
    /// - Parameters:
    ///   - environment: the process environment, or a test's own.
    ///   - processID: the pid `LISTEN_PID` must equal; defaults to this process.
    public init(environment: [String: String], processID: pid_t = getpid()) {
        self.init(environment: environment, processID: processID, firstDescriptor: SD_LISTEN_FDS_START)
    }

    init(environment: [String: String], processID: pid_t, firstDescriptor: Int32) {
        guard let pidText = environment["LISTEN_PID"], let pid = pid_t(pidText), pid == processID,
            let countText = environment["LISTEN_FDS"], let count = Int32(countText), count > 0, count < 4096
        else {
            descriptors = []
            return
        }
        let names =
            environment["LISTEN_FDNAMES"].map { $0.split(separator: ":", omittingEmptySubsequences: false) } ?? []
        descriptors = (0..<count).map { index in
            let fd = firstDescriptor + index
            let flags = fcntl(fd, F_GETFD)
            if flags >= 0 { _ = fcntl(fd, F_SETFD, flags | FD_CLOEXEC) }
            let name = Int(index) < names.count ? String(names[Int(index)]) : "unknown"
            return Descriptor(fd: fd, name: name)
        }
    }

    /// The first passed descriptor that is a listening stream socket in the Unix domain
    /// (checked with `sd_is_socket_unix`), or nil.
    /// - Parameter name: when given, only a descriptor with this `FileDescriptorName=`.
    public func firstUnixStreamListener(named name: String? = nil) -> Int32? {
        descriptors.first { descriptor in
            (name == nil || descriptor.name == name)
                && sd_is_socket_unix(descriptor.fd, Int32(SOCK_STREAM.rawValue), 1, nil, 0) > 0
        }?.fd
    }
}
