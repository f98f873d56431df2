import CSystemd
import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Listens for logind's `PrepareForSleep` signal (org.freedesktop.login1.Manager) over sd-bus.
///
/// The bus is read on a thread of its own, blocked in poll(2) with no timeout: it costs no
/// wake-up until a signal comes (or the bus says something, which logind's match rule keeps
/// rare). Without a system bus (a container) the stream ends at once and `unavailable` says why.
public enum SleepWatch {
    /// The signals, until the stream's consumer goes away.
    /// - Parameters:
    ///   - address: a D-Bus address to use instead of the system bus (tests pass a private
    ///     bus of their own; `SESAME_LOGIND_BUS_ADDRESS`); nil: the system bus.
    ///   - watching: called once the match is in place (the bus delivers from then on).
    ///   - unavailable: called once when the bus cannot be reached or the match not added, with
    ///     a reason for a person (no secret).
    public static func signals(
        address: String?, watching: @escaping @Sendable () -> Void = {},
        unavailable: @escaping @Sendable (String) -> Void
    ) -> AsyncStream<SleepSignal> {
        let (stream, continuation) = AsyncStream.makeStream(of: SleepSignal.self)
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else {
            unavailable("pipe: \(String(cString: strerror(errno)))")
            continuation.finish()
            return stream
        }
        let (stopRead, stopWrite) = (ends[0], ends[1])
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        continuation.onTermination = { _ in
            var byte: UInt8 = 1
            _ = write(stopWrite, &byte, 1)
        }
        let thread = Thread {
            let reason = BusListener.run(
                address: address, stop: stopRead, continuation: continuation, watching: watching)
            if let reason { unavailable(reason) }
            continuation.finish()
            close(stopRead)
            close(stopWrite)
        }
        thread.name = "sesame-logind"
        thread.start()
        return stream
    }
}

/// The bus connection of ``SleepWatch``, used on its thread only.
private enum BusListener {
    /// Connects, adds the match and reads until `stop` is readable; the reason when it could not.
    static func run(
        address: String?, stop: Int32, continuation: AsyncStream<SleepSignal>.Continuation,
        watching: @Sendable () -> Void
    ) -> String? {
        var opened: OpaquePointer?
        let result = address.map { open(address: $0, bus: &opened) } ?? sd_bus_open_system(&opened)
        guard result >= 0, let bus = opened else { return "cannot connect to the bus: \(describe(result))" }
        defer { sd_bus_flush_close_unref(bus) }
        let box = Unmanaged.passRetained(SignalSink(continuation))
        defer { box.release() }
        var slot: OpaquePointer?
        let matched = sd_bus_match_signal(
            bus, &slot, "org.freedesktop.login1", "/org/freedesktop/login1", "org.freedesktop.login1.Manager",
            "PrepareForSleep",
            { message, userdata, _ in
                guard let message, let userdata else { return 0 }
                var sleeping: Int32 = 0
                guard sd_bus_message_read_basic(message, CChar(UInt8(ascii: "b")), &sleeping) > 0 else { return 0 }
                Unmanaged<SignalSink>.fromOpaque(userdata).takeUnretainedValue().continuation.yield(
                    sleeping != 0 ? .suspending : .resumed)
                return 0
            }, box.toOpaque())
        guard matched >= 0 else { return "cannot subscribe to PrepareForSleep: \(describe(matched))" }
        defer { sd_bus_slot_unref(slot) }
        watching()
        while true {
            var processed: Int32
            repeat {
                processed = sd_bus_process(bus, nil)
            } while processed > 0
            if processed < 0 { return "the bus connection ended: \(describe(processed))" }
            var descriptors = [
                pollfd(fd: sd_bus_get_fd(bus), events: Int16(truncatingIfNeeded: sd_bus_get_events(bus)), revents: 0),
                pollfd(fd: stop, events: Int16(POLLIN), revents: 0),
            ]
            var deadline: UInt64 = .max
            sd_bus_get_timeout(bus, &deadline)
            let ready = poll(&descriptors, 2, timeout(until: deadline))
            if ready < 0 && errno != EINTR { return "poll: \(String(cString: strerror(errno)))" }
            if descriptors[1].revents != 0 { return nil }
        }
    }

    private static func open(address: String, bus: inout OpaquePointer?) -> Int32 {
        var result = sd_bus_new(&bus)
        guard result >= 0, let created = bus else { return result }
        result = sd_bus_set_address(created, address)
        if result >= 0 { result = sd_bus_set_bus_client(created, 1) }
        if result >= 0 { result = sd_bus_start(created) }
        if result < 0 {
            sd_bus_unref(created)
            bus = nil
        }
        return result
    }

    /// poll(2)'s timeout in milliseconds for sd-bus's deadline (CLOCK_MONOTONIC µs; max: none).
    private static func timeout(until deadline: UInt64) -> Int32 {
        guard deadline != .max else { return -1 }
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let nowMicroseconds = UInt64(now.tv_sec) * 1_000_000 + UInt64(now.tv_nsec) / 1000
        guard deadline > nowMicroseconds else { return 0 }
        return Int32(clamping: (deadline - nowMicroseconds + 999) / 1000)
    }

    private static func describe(_ result: Int32) -> String { String(cString: strerror(-result)) }
}

/// The continuation the C callback reaches through its userdata pointer.
private final class SignalSink {
    let continuation: AsyncStream<SleepSignal>.Continuation
    init(_ continuation: AsyncStream<SleepSignal>.Continuation) { self.continuation = continuation }
}
