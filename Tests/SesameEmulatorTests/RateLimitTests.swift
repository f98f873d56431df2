import Foundation
import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Issue 35, item 1: per-source-address limits as the services document them, answered with
/// their own 429s; each address has its own bucket, and a bucket fills again with time.
@Suite("emulator: per-address rate limits")
struct RateLimitTests {
    @Test(
        "Firebase: 100 new accounts an hour per address, then 429 TOO_MANY_ATTEMPTS_TRY_LATER; another address is not limited; an hour later the address may sign up again"
    )
    func firebaseAccountCreation() async throws {
        let time = EmulatorTime()
        var configuration = EmulatorConfiguration()
        configuration.rateLimits = RateLimit.documented
        try await withEmulator(configuration, time: time) { emulator in
            let test = TestEmulator(emulator: emulator, time: time)
            for _ in 0..<100 { _ = try await test.signUpAnonymously() }
            let refused = try await test.auth("accounts:signUp", ["returnSecureToken": true])
            #expect(refused.status == 429)
            #expect(refused.errorMessage == "TOO_MANY_ATTEMPTS_TRY_LATER")
            #expect(
                refused.json["error"]?["errors"]?.arrayValue?.first?["message"]?.stringValue
                    == "TOO_MANY_ATTEMPTS_TRY_LATER")
            // A password sign-up is a new account too.
            let password = try await test.auth("accounts:signUp", ["email": "a@example.com", "password": "secret-pw"])
            #expect(password.status == 429)
            // Sign-in is not account creation.
            #expect(try await test.auth("accounts:lookup", ["idToken": "x"]).status != 429)

            let other = try await RawExchange.send(
                Self.post("/identitytoolkit.googleapis.com/v1/accounts:signUp?key=k", "{\"returnSecureToken\":true}"),
                port: emulator.authPort, from: "127.0.0.2")
            #expect(String(decoding: other.received, as: UTF8.self).hasPrefix("HTTP/1.1 200"))

            time.advance(seconds: 36)  // one token back (100 an hour)
            #expect(try await test.auth("accounts:signUp", ["returnSecureToken": true]).status == 200)
            #expect(try await test.auth("accounts:signUp", ["returnSecureToken": true]).status == 429)

            let report = try await test.request("GET", test.authBase + "/sesame/v1/rate-limits")
            let entry = try #require(
                report.json["limits"]?.arrayValue?.first { $0["name"]?.stringValue == "account_creation" })
            #expect(entry["admitted"]?.intValue == 102 && entry["refused"]?.intValue == 3)
        }
    }

    @Test(
        "GoTrue: 30 anonymous sign-ups per address, then 429 over_request_rate_limit; refreshes burst 30 then 150 per 5 minutes; sign-ups with an address count as otp"
    )
    func goTrueLimits() async throws {
        let time = EmulatorTime()
        var configuration = EmulatorConfiguration(supabase: SupabaseEmulatorConfiguration(port: 0))
        configuration.rateLimits = RateLimit.documented
        try await withEmulator(configuration, time: time) { emulator in
            let supabase = SupabaseTestEmulator(
                emulator: emulator, time: time, base: "http://127.0.0.1:\(try #require(emulator.supabasePort))",
                anonKey: try #require(emulator.supabaseAnonKey),
                serviceKey: try #require(emulator.supabaseServiceRoleKey))
            var session = JSONValue.null
            for _ in 0..<30 { session = try await supabase.anonymousSession() }
            let refused = try await supabase.call("POST", "/auth/v1/signup", [:])
            #expect(refused.status == 429)
            #expect(refused.json["error_code"]?.stringValue == "over_request_rate_limit")
            #expect(refused.json["msg"]?.stringValue == "Request rate limit reached")
            #expect(refused.header("x-sb-error-code") == "over_request_rate_limit")
            #expect(refused.header("retry-after") == nil)
            // A sign-up with an address is another limiter (otp).
            #expect(
                try await supabase.call("POST", "/auth/v1/signup", ["email": "b@example.com", "password": "secret-pw"])
                    .status == 200)

            var token = session["refresh_token"]?.stringValue
            for _ in 0..<30 {
                let answer = try await supabase.refresh(token)
                #expect(answer.status == 200)
                token = answer.json["refresh_token"]?.stringValue
            }
            #expect(try await supabase.refresh(token).status == 429)
            time.advance(seconds: 2)  // 150 per 300 s: one back every 2 s
            #expect(try await supabase.refresh(token).status == 200)
        }
    }

    @Test(
        "GoTrue with --supabase-rate-limit-header: the header's first value names the client, as GoTrue keys its limiters"
    )
    func goTrueHeaderKey() async throws {
        var configuration = EmulatorConfiguration(
            supabase: SupabaseEmulatorConfiguration(port: 0, rateLimitHeader: "X-Client-IP"))
        configuration.rateLimits = ["anonymous_users": RateLimit(count: 2, seconds: 3600, burst: 2)]
        let time = EmulatorTime()
        try await withEmulator(configuration, time: time) { emulator in
            let supabase = SupabaseTestEmulator(
                emulator: emulator, time: time, base: "http://127.0.0.1:\(try #require(emulator.supabasePort))",
                anonKey: try #require(emulator.supabaseAnonKey),
                serviceKey: try #require(emulator.supabaseServiceRoleKey))
            func signUp(_ client: String) async throws -> Int {
                try await supabase.call("POST", "/auth/v1/signup", [:], headers: [("X-Client-IP", client)]).status
            }
            #expect(try await signUp("10.0.0.1, 10.9.9.9") == 200)
            #expect(try await signUp("10.0.0.1") == 200)
            #expect(try await signUp("10.0.0.1, 192.168.1.1") == 429)
            #expect(try await signUp("10.0.0.2") == 200)
        }
    }

    @Test("--rate-limit parses NAME=COUNT/SECONDS[:BURST] and refuses unknown names and bad numbers")
    func parsing() throws {
        let parsed = try RateLimit.parse("token_refresh=150/300:30").get()
        #expect(parsed.0 == "token_refresh" && parsed.1 == RateLimit(count: 150, seconds: 300, burst: 30))
        #expect(try RateLimit.parse("anonymous_users=5/60").get().1.burst == 5)
        for bad in ["nope=1/1", "token_refresh", "token_refresh=0/10", "token_refresh=5/x", "otp=5/60:0"] {
            guard case .failure(let error) = RateLimit.parse(bad) else {
                Issue.record("\(bad) was accepted")
                continue
            }
            #expect(error.description.contains(bad))
        }
    }

    static func post(_ target: String, _ body: String) -> String {
        "POST \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
    }
}
