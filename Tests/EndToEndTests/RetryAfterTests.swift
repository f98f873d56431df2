import Foundation
import SesameClient
import SesameLocalAPI
import Testing

/// A backend that answers 429 with `Retry-After`: the client is told how long to wait in
/// `data.retryAfterMs` (seconds or an HTTP date), and the session is kept.
@Suite("sesamed: Retry-After from the backend")
struct RetryAfterTests {
    @Test("a 429 with Retry-After in seconds or as an HTTP date is reflected in data.retryAfterMs; the session is kept")
    func retryAfterReachesTheClient() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            let client = daemon.client()
            defer { Task { await client.close() } }
            let uid = try await client.state().user?.uid

            try await emulator.faults([
                "failNext": 1, "failStatus": 429, "failMessage": "TOO_MANY_ATTEMPTS_TRY_LATER", "retryAfter": 7,
                "pathPrefix": "/securetoken.googleapis.com",
            ])
            let seconds = await #expect(throws: SesameClientError.self) {
                _ = try await client.idToken(forceRefresh: true)
            }
            #expect(seconds?.reason == "too-many-requests")
            #expect(seconds?.daemonError?.retryAfterMs == 7000)

            // An HTTP date about 20 s ahead (the daemon measures it against its own clock).
            let formatter = DateFormatter()
            formatter.locale = Locale(identifier: "en_US_POSIX")
            formatter.timeZone = TimeZone(identifier: "GMT")
            formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss 'GMT'"
            let date = formatter.string(from: Date().addingTimeInterval(20))
            try await emulator.faults([
                "failNext": 1, "failStatus": 429, "failMessage": "TOO_MANY_ATTEMPTS_TRY_LATER",
                "retryAfter": .string(date),
                "pathPrefix": "/securetoken.googleapis.com",
            ])
            let dated = await #expect(throws: SesameClientError.self) {
                _ = try await client.idToken(forceRefresh: true)
            }
            let wait = dated?.daemonError?.retryAfterMs ?? 0
            #expect(wait > 10_000 && wait <= 21_000, "retryAfterMs \(wait) for a date 20 s ahead")

            // The fault is spent: the next call succeeds, on the same session.
            _ = try await client.idToken(forceRefresh: true)
            #expect(try await client.state().user?.uid == uid)
        }
    }
}
