import Foundation

/// A D-Bus daemon of a test's own (`dbus-daemon --config-file`), listening on a Unix socket in a
/// temporary directory, with a policy that lets any connection own any name: a stand-in for
/// the system bus, so a ``FakeLogind`` can own `org.freedesktop.login1` on it.
public final class PrivateBus: Sendable {
    /// The bus's address, for `SESAME_LOGIND_BUS_ADDRESS` or ``FakeLogind``.
    public let address: String
    private let directory: String
    private let process: SpawnedProcess

    private init(address: String, directory: String, process: SpawnedProcess) {
        self.address = address
        self.directory = directory
        self.process = process
    }

    /// Starts the bus and returns once it accepts connections.
    public static func start() async throws -> PrivateBus {
        let directory = NSTemporaryDirectory() + "sesame-bus-" + UUID().uuidString.prefix(8)
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let socket = directory + "/bus"
        let configuration = """
            <!DOCTYPE busconfig PUBLIC "-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN"
             "http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd">
            <busconfig>
              <type>session</type>
              <listen>unix:path=\(socket)</listen>
              <auth>EXTERNAL</auth>
              <policy context="default">
                <allow send_destination="*" eavesdrop="true"/>
                <allow eavesdrop="true"/>
                <allow own="*"/>
              </policy>
            </busconfig>
            """
        try configuration.write(toFile: directory + "/bus.conf", atomically: true, encoding: .utf8)
        let process = try await SpawnedProcess.launch(
            "/usr/bin/dbus-daemon", ["--config-file=\(directory)/bus.conf", "--nofork", "--nopidfile"],
            environment: SpawnedProcess.environment(), stderr: .file(directory + "/bus.log"))
        let bus = PrivateBus(address: "unix:path=\(socket)", directory: directory, process: process)
        do {
            try await eventually("dbus-daemon listens on \(socket)", timeout: .seconds(10)) {
                FileManager.default.fileExists(atPath: socket)
            }
        } catch {
            await bus.stop()
            throw error
        }
        return bus
    }

    /// Whether `dbus-daemon` is installed (the `dbus` package).
    public static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/dbus-daemon") }

    /// Stops the bus and removes its directory.
    public func stop() async {
        process.signal(SIGTERM)
        try? await waitForExit(of: process, timeout: .seconds(10))
        try? FileManager.default.removeItem(atPath: directory)
    }
}
