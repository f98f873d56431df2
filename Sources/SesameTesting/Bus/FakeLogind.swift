import CSystemd
import Foundation
import Synchronization

/// logind as far as the daemon listens to it: a connection to a ``PrivateBus`` that owns
/// `org.freedesktop.login1` and emits `org.freedesktop.login1.Manager.PrepareForSleep` on
/// `/org/freedesktop/login1`, as logind does around a suspend.
public final class FakeLogind: Sendable {
    /// The sd-bus connection; sd-bus objects belong to one thread at a time, hence the lock.
    private let bus: Mutex<OpaquePointer>

    /// Connects to `address` and takes logind's name.
    public init(address: String) throws {
        var created: OpaquePointer?
        try Self.check("sd_bus_new", sd_bus_new(&created))
        guard let bus = created else { throw HarnessError("sd_bus_new gave no bus") }
        do {
            try Self.check("sd_bus_set_address", sd_bus_set_address(bus, address))
            try Self.check("sd_bus_set_bus_client", sd_bus_set_bus_client(bus, 1))
            try Self.check("sd_bus_start", sd_bus_start(bus))
            try Self.check("sd_bus_request_name", sd_bus_request_name(bus, "org.freedesktop.login1", 0))
        } catch {
            sd_bus_flush_close_unref(bus)
            throw error
        }
        self.bus = Mutex(bus)
    }

    deinit {
        bus.withLock { _ = sd_bus_flush_close_unref($0) }
    }

    /// `PrepareForSleep(true)`: the machine is about to sleep.
    public func suspend() throws { try emit(sleeping: true) }

    /// `PrepareForSleep(false)`: the machine woke up.
    public func resume() throws { try emit(sleeping: false) }

    private func emit(sleeping: Bool) throws {
        try bus.withLock { bus in
            var message: OpaquePointer?
            try Self.check(
                "sd_bus_message_new_signal",
                sd_bus_message_new_signal(
                    bus, &message, "/org/freedesktop/login1", "org.freedesktop.login1.Manager", "PrepareForSleep"))
            defer { sd_bus_message_unref(message) }
            var value: Int32 = sleeping ? 1 : 0
            try Self.check(
                "sd_bus_message_append_basic", sd_bus_message_append_basic(message, CChar(UInt8(ascii: "b")), &value))
            try Self.check("sd_bus_send", sd_bus_send(bus, message, nil))
            try Self.check("sd_bus_flush", sd_bus_flush(bus))
        }
    }

    private static func check(_ call: String, _ result: Int32) throws {
        if result < 0 { throw HarnessError("\(call): \(String(cString: strerror(-result)))") }
    }
}
