import NIOCore
import NIOHTTP1
import SesameEmulator
import SesameHTTP
import SesameTesting
import Testing

/// The transport over real loopback HTTP against the in-process emulator.
@Suite("AsyncHTTPClient transport")
struct AsyncHTTPClientTransportTests {
    static func withEmulator(
        requestTimeout: Duration = .seconds(20),
        _ body: (SesameEmulator, AsyncHTTPClientTransport) async throws -> Void
    ) async throws {
        let emulator = try await SesameEmulator.start(
            EmulatorConfiguration(host: "127.0.0.1", authPort: 0, databasePort: 0, projectId: "demo-project"))
        let transport = AsyncHTTPClientTransport(
            connectTimeout: LoopbackTimeouts.connect, requestTimeout: requestTimeout)
        do {
            try await body(emulator, transport)
        } catch {
            await transport.shutdown()
            await emulator.stop()
            throw error
        }
        await transport.shutdown()
        await emulator.stop()
    }

    @Test("a complete answer comes back whatever its status; a dropped connection is connectionClosed")
    func answers() async throws {
        try await Self.withEmulator { emulator, transport in
            let base = "http://127.0.0.1:\(emulator.authPort)"
            let ok = try await transport.send(
                HTTPRequest(name: "faults", method: .GET, url: base + "/sesame/v1/faults"))
            #expect(ok.status == 200 && ok.isSuccess)
            #expect(ok.bytes.count > 2)

            let fault = HTTPRequest.json(
                name: "faults", method: .POST, url: base + "/sesame/v1/faults", body: ["failNext": 1])
            #expect(try await transport.send(fault).status == 200)
            let failed = try await transport.send(
                HTTPRequest(
                    name: "lookup", method: .POST,
                    url: base + "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k"))
            #expect(failed.status == 503 && !failed.isSuccess)

            let down = HTTPRequest.json(
                name: "faults", method: .POST, url: base + "/sesame/v1/faults", body: ["down": true])
            #expect(try await transport.send(down).status == 200)
            await #expect(throws: HTTPTransportError.connectionClosed) {
                _ = try await transport.send(
                    HTTPRequest(
                        name: "lookup", method: .POST,
                        url: base + "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k"))
            }
        }
    }

    @Test("a body that drips past the deadline ends the call at its deadline, as a timeout")
    func drippingBody() async throws {
        try await Self.withEmulator { (emulator, transport) async throws in
            let base = "http://127.0.0.1:\(emulator.authPort)"
            // A 5 s deadline: long enough for a loopback call on a loaded test machine, far
            // shorter than the 60 s the dripping body takes.
            let deadline = AsyncHTTPClientTransport(
                connectTimeout: LoopbackTimeouts.connect, requestTimeout: .seconds(5))
            do {
                try await Self.dripPastTheDeadline(base: base, deadline: deadline, setup: transport)
            } catch {
                await deadline.shutdown()
                throw error
            }
            await deadline.shutdown()
        }
    }

    private static func dripPastTheDeadline(
        base: String, deadline: AsyncHTTPClientTransport, setup transport: AsyncHTTPClientTransport
    ) async throws {
        // Without a drip the same call completes within the deadline.
        let lookup = HTTPRequest(
            name: "lookup", method: .POST, url: base + "/identitytoolkit.googleapis.com/v1/accounts:lookup?key=k")
        #expect(try await deadline.send(lookup).status == 400)
        // The head comes at once; the body would take 60 s.
        let drip = HTTPRequest.json(
            name: "faults", method: .POST, url: base + "/sesame/v1/faults",
            body: ["dripBodyMs": 1000, "dripBytes": 60])
        #expect(try await transport.send(drip).status == 200)
        let clock = ContinuousClock()
        let started = clock.now
        await #expect(throws: HTTPTransportError.requestTimedOut) {
            _ = try await deadline.send(lookup)
        }
        // Ended by the 5 s deadline, far from the 60 s the body would have taken.
        #expect(clock.now - started < .seconds(30))
    }

    @Test("nothing listening is a connect failure, described without the URL")
    func refused() async throws {
        let transport = AsyncHTTPClientTransport(connectTimeout: LoopbackTimeouts.connect, requestTimeout: .seconds(5))
        let failure = await #expect(throws: HTTPTransportError.self) {
            _ = try await transport.send(
                HTTPRequest(name: "x", method: .GET, url: "http://127.0.0.1:1/secret-path?key=SECRET"))
        }
        await transport.shutdown()
        let description = try #require(failure).description
        #expect(!description.contains("SECRET"))
        #expect(description.hasPrefix("connect") || description.hasPrefix("connection failed"), "\(description)")
    }
}
