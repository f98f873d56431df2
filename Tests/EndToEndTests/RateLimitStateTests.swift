import Foundation
import SesameClient
import SesameLocalAPI
import SesameTesting
import Testing

/// PROTOCOL.md "Rate limits": a backend that refuses a call for a rate limit puts the state in
/// `rate-limited` with what was limited and until when; the held token is still served, and
/// the daemon comes back `online` by itself once the wait is over.
@Suite("sesamed: rate-limited, in the state", .serialized)
struct RateLimitStateTests {
    @Test(
        "a refresh refused with 429 and Retry-After: rate-limited (refresh, retryAt from Retry-After), the token still served, online again by itself",
        arguments: TestBackend.allCases)
    func limitedRefresh(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let before = try await client.state()
            let held = try await client.idToken()

            try await emulator.faults([
                "failNext": 1, "failStatus": 429, "retryAfter": 3,
                "failMessage": .string(
                    backend == .supabase ? "over_request_rate_limit" : "TOO_MANY_ATTEMPTS_TRY_LATER"),
                "pathPrefix": .string(emulator.refreshPathPrefix),
            ])
            let asked = Date()
            let refused = await #expect(throws: SesameClientError.self) {
                _ = try await client.idToken(forceRefresh: true)
            }
            #expect(refused?.reason == "too-many-requests")

            let limited = try await client.state()
            #expect(limited.connectivity == .rateLimited)
            let limit = try #require(limited.rateLimit)
            #expect(limit.operation == "refresh")
            // Retry-After: 3 s, measured on the daemon's clock from when it was told.
            #expect(limit.retryAt > asked.addingTimeInterval(2) && limit.retryAt < Date().addingTimeInterval(4))
            #expect(limited.user?.uid == before.user?.uid)
            #expect(try await client.idToken().token == held.token)

            // sesamectl says what was limited and that the daemon waits by itself.
            let status = try await daemon.ctl(["status"])
            #expect(status.stdout.contains("rate-limited: the backend limited refresh"), "\(status.stdout)")
            #expect(status.stdout.contains("tries again by itself"))

            // At retryAt the daemon refreshes by itself: a new token, online, no limit, same user.
            // (Another backend call may turn it online first; the refresh still comes.)
            try await eventually("refreshed by itself and online again", timeout: .seconds(30)) {
                let state = try await client.state()
                let token = try await client.idToken()
                return state.connectivity == .online && state.rateLimit == nil && token.token != held.token
            }
            let after = try await client.state()
            #expect(after.user?.uid == before.user?.uid)
        }
    }

    @Test("a subscriber hears connectivityChanged with the rate limit and then without it")
    func subscriberHearsTheLimit() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            var iterator = client.stateChanges.makeAsyncIterator()
            _ = try await iterator.next()  // the snapshot

            try await emulator.faults([
                "failNext": 1, "failStatus": 429, "retryAfter": 1, "failMessage": "TOO_MANY_ATTEMPTS_TRY_LATER",
                "pathPrefix": .string(emulator.refreshPathPrefix),
            ])
            _ = try? await client.idToken(forceRefresh: true)
            var seen: [(SesameConnectivity, String?)] = []
            while seen.last?.0 != .online || seen.count < 2 {
                guard let state = try await iterator.next() else { break }
                if state.changeReason == .connectivityChanged {
                    seen.append((state.connectivity, state.rateLimit?.operation))
                }
            }
            #expect(seen.first?.0 == .rateLimited && seen.first?.1 == "refresh")
            #expect(seen.last?.0 == .online && seen.last?.1 == nil)
        }
    }
}
