import Foundation
import Logging
import SesameCore
import SesameService
import SesameTesting
import Testing

/// A service over the fake backend without anonymous-first or the maintenance loop, signed in
/// to `ann@example.com`; optionally a backend that mails codes (as Supabase) and usernames.
struct SecurityHarness {
    let clock = ManualClock()
    let provider: FakeRemoteAuthProvider
    let store = InMemorySessionStore()
    let directory = FakeUsernameDirectory()
    let service: SessionService

    init(sendsCodes: Bool = false, usernames: Bool = false, logger: Logger? = nil) {
        provider = FakeRemoteAuthProvider(clock: clock, sendsCodes: sendsCodes)
        service = SessionService(
            provider: provider, store: store, directory: usernames ? directory : nil, clock: clock,
            configuration: SessionServiceConfiguration(anonymousFirst: false),
            logger: logger ?? Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() }))
    }

    /// Starts the service signed in to a new account, runs `body` with its events.
    func run(
        username: String? = nil, _ body: (inout AsyncStream<SessionEvent>.Iterator, String) async throws -> Void
    ) async throws {
        try await service.start()
        let state = try await service.accounts.createAccount(
            email: "ann@example.com", password: "secret1", username: username)
        var events = await service.events().makeAsyncIterator()
        _ = await events.next()
        let loop = Task { [service] in await service.run() }  // runs what the service spawns
        defer { loop.cancel() }
        do {
            try await body(&events, try #require(state.user?.uid))
        } catch {
            await service.shutdown()
            throw error
        }
        await service.shutdown()
    }

    func code(_ secret: String) -> String { FakeRemoteAuthProvider.code(secret: secret, at: clock.date) }
}

@Suite("SessionService: TOTP enrolment, reauthentication, password and address changes, resets")
struct AccountSecurityServiceTests {
    @Test("enrollTotp then confirmTotp: a wrong code keeps it pending, a right one lists the factor (userUpdated)")
    func enrolment() async throws {
        let harness = SecurityHarness()
        try await harness.run { events, _ in
            let enrollment = try await harness.service.security.enrollTotp(displayName: "phone")
            #expect(enrollment.otpauthUri.hasPrefix("otpauth://totp/") && !enrollment.secret.isEmpty)
            #expect(enrollment.expiresAt == harness.clock.date.addingTimeInterval(600))
            let wrong = harness.code(enrollment.secret) == "000000" ? "111111" : "000000"
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.confirmTotp(
                        enrollmentId: enrollment.enrollmentId, code: wrong)
                } == .invalidVerificationCode)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.confirmTotp(enrollmentId: "nope", code: "123456")
                } == .expiredSignInFlow)
            let state = try await harness.service.security.confirmTotp(
                enrollmentId: enrollment.enrollmentId, code: harness.code(enrollment.secret))
            #expect(state.user?.factors.map(\.displayName) == ["phone"])
            let updated = try await next(&events) { $0.kind == .userUpdated }
            #expect(updated.state.user?.factors.count == 1)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.confirmTotp(
                        enrollmentId: enrollment.enrollmentId, code: harness.code(enrollment.secret))
                } == .expiredSignInFlow, "a confirmed enrolment is no longer pending")
        }
    }

    @Test("an enrolment expires; a guest needs an account; nobody signed in is no-current-user")
    func enrolmentLimits() async throws {
        let harness = SecurityHarness()
        try await harness.run { _, _ in
            let enrollment = try await harness.service.security.enrollTotp(displayName: nil)
            harness.clock.advance(by: .seconds(601))
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.confirmTotp(
                        enrollmentId: enrollment.enrollmentId, code: harness.code(enrollment.secret))
                } == .expiredSignInFlow)
            _ = try await harness.service.accounts.signOut(reset: false)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.enrollTotp(displayName: nil)
                }
                    == .noCurrentUser)
            _ = try await harness.service.accounts.signInAnonymously()
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.enrollTotp(displayName: nil)
                }
                    == .requiresAccount)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.accounts.changeEmail(newEmail: "a@b.c")
                }
                    == .requiresAccount)
        }
    }

    @Test("requires-recent-login passes through for unenrol, delete, password and address; reauthenticate fixes it")
    func recentLogin() async throws {
        let harness = SecurityHarness()
        try await harness.run { _, uid in
            let factorId = await harness.provider.addTotpFactor(uid: uid)
            await harness.provider.setRecentLoginWindow(300)
            harness.clock.advance(by: .seconds(400))
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.unenrollFactor(factorId: factorId)
                } == .requiresRecentLogin)
            #expect(
                await failure { () async throws(AuthError) in
                    try await harness.service.security.changePassword(newPassword: "secret2")
                }
                    == .requiresRecentLogin)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.accounts.changeEmail(newEmail: "new@example.com")
                } == .requiresRecentLogin)
            #expect(
                await failure { () async throws(AuthError) in _ = try await harness.service.accounts.deleteAccount() }
                    == .requiresRecentLogin)
            // The account has a factor: reauthenticating with the password goes through the challenge.
            var challenge: SecondFactorChallenge?
            do throws(AuthError) {
                _ = try await harness.service.security.reauthenticate(.password("secret1"))
            } catch {
                challenge = error.challenge
            }
            let id = try #require(challenge?.challengeId)
            _ = try await harness.service.secondFactors.verify(
                challengeId: id, code: harness.code("FAKESECRET"), factorId: nil)
            let state = try await harness.service.security.unenrollFactor(factorId: factorId)
            #expect(state.user?.factors == [])
            let done = try await harness.service.security.reauthenticate(.password("secret1"))
            #expect(done.validUntil == harness.clock.date.addingTimeInterval(300) && !done.codeSent)
            try await harness.service.security.changePassword(newPassword: "secret2")
            #expect(await harness.provider.password(of: uid) == "secret2")
            #expect(await harness.service.state.user?.uid == uid, "the new tokens adopted, the session kept")
            _ = try await harness.service.accounts.deleteAccount()
            #expect(await harness.service.state.user == nil)
        }
    }

    @Test("a wrong password to reauthenticate is refused; a weak new password is weak-password")
    func reauthenticationAndWeakPassword() async throws {
        let harness = SecurityHarness()
        try await harness.run { _, _ in
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.reauthenticate(.password("wrong1"))
                } == .invalidLoginCredentials)
            #expect(
                await failure { () async throws(AuthError) in
                    try await harness.service.security.changePassword(newPassword: "abc")
                }
                    == .weakPassword)
            #expect(
                await failure { () async throws(AuthError) in _ = try await harness.service.security.reauthenticate(nil)
                }
                    == .operationNotAllowed, "this backend mails no codes")
        }
    }

    @Test("a backend that mails codes: reauthenticate {} mails one, {code} is held and sent once with the password")
    func reauthenticationCode() async throws {
        let harness = SecurityHarness(sendsCodes: true)
        try await harness.run { _, uid in
            await harness.provider.setRecentLoginWindow(300)
            harness.clock.advance(by: .seconds(400))
            let sent = try await harness.service.security.reauthenticate(nil)
            #expect(sent.codeSent && sent.validUntil == nil)
            let code = try #require(await harness.provider.reauthenticationCode(of: uid))
            _ = try await harness.service.security.reauthenticate(.code(code))
            try await harness.service.security.changePassword(newPassword: "secret2")
            #expect(await harness.provider.password(of: uid) == "secret2")
            #expect(
                await failure { () async throws(AuthError) in
                    try await harness.service.security.changePassword(newPassword: "secret3")
                }
                    == .requiresRecentLogin, "the code is used once")
        }
    }

    @Test("changeEmail: pendingEmail until confirmed, remembered durably; then the email, userUpdated, forgotten")
    func emailChange() async throws {
        let harness = SecurityHarness(usernames: true)
        try await harness.run(username: "Ann") { events, uid in
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.accounts.changeEmail(newEmail: "bad")
                }
                    == .invalidEmail)
            _ = await harness.provider.addAccount(email: "taken@example.com", password: "secret1")
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.accounts.changeEmail(newEmail: "taken@example.com")
                } == .emailAlreadyInUse)
            let pending = try await harness.service.accounts.changeEmail(newEmail: "new@example.com")
            #expect(pending == "new@example.com")
            let shown = try await next(&events) { $0.kind == .userUpdated }
            #expect(shown.state.user?.pendingEmail == "new@example.com" && shown.state.user?.email == "ann@example.com")
            #expect(await harness.store.stored?.pendingEmails[uid] == "new@example.com")
            let reloaded = try await harness.service.accounts.reload()
            #expect(reloaded.user?.pendingEmail == "new@example.com", "a lookup without it still shows it")

            await harness.provider.confirmEmailChange(uid: uid)
            let confirmed = try await harness.service.accounts.reload()
            #expect(confirmed.user?.email == "new@example.com" && confirmed.user?.pendingEmail == nil)
            let updated = try await next(&events) { $0.kind == .userUpdated }
            #expect(updated.state.user?.email == "new@example.com")
            #expect(await harness.store.stored?.pendingEmails[uid] == nil)
            let record = try await harness.directory.details(of: uid)
            #expect(record?.email == "new@example.com", "the username record's email follows")
        }
    }

    @Test("confirmPasswordReset: a link sets the password without a session; reused, missing email, weak")
    func passwordReset() async throws {
        let harness = SecurityHarness()
        try await harness.run { _, uid in
            _ = try await harness.service.accounts.signOut(reset: false)
            try await harness.service.accounts.sendPasswordReset(identifier: "ann@example.com")
            let link = try #require(await harness.provider.lastPasswordReset(for: "ann@example.com"))
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.confirmPasswordReset(link, email: nil, newPassword: "abc")
                } == .weakPassword)
            #expect(
                try await harness.service.security.confirmPasswordReset(link, email: nil, newPassword: "secret9")
                    == "ann@example.com")
            #expect(await harness.provider.password(of: uid) == "secret9")
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.confirmPasswordReset(
                        link, email: nil, newPassword: "secret8")
                } == .invalidActionCode)
            #expect(
                await failure { () async throws(AuthError) in
                    _ = try await harness.service.security.confirmPasswordReset(
                        .code("123456"), email: nil, newPassword: "secret8")
                } == .missingEmail)
        }
    }

    @Test("no secret in a log line or an error: TOTP secret, codes, pending credential, reauthentication code")
    func noSecretsLogged() async throws {
        let (logger, lines) = RecordingLogHandler.logger()
        let harness = SecurityHarness(sendsCodes: true, logger: logger)
        var secrets: [String] = []
        var errors: [String] = []
        try await harness.run { _, uid in
            let enrollment = try await harness.service.security.enrollTotp(displayName: "phone")
            secrets.append(enrollment.secret)
            let code = harness.code(enrollment.secret)
            secrets.append(code)
            _ = try await harness.service.security.confirmTotp(enrollmentId: enrollment.enrollmentId, code: code)
            _ = try await harness.service.security.reauthenticate(nil)
            let nonce = try #require(await harness.provider.reauthenticationCode(of: uid))
            secrets.append(nonce)
            _ = try await harness.service.security.reauthenticate(.code(nonce))
            try await harness.service.security.changePassword(newPassword: "secret2")
            _ = try await harness.service.accounts.signOut(reset: false)
            do throws(AuthError) {
                _ = try await harness.service.accounts.signIn(identifier: "ann@example.com", password: "secret2")
            } catch {
                errors.append(error.description)
                let challenge = try #require(error.challenge)
                let wrong = harness.code(enrollment.secret) == "000000" ? "111111" : "000000"
                do throws(AuthError) {
                    _ = try await harness.service.secondFactors.verify(
                        challengeId: challenge.challengeId, code: wrong, factorId: nil)
                } catch { errors.append(error.description) }
                let right = harness.code(enrollment.secret)
                secrets.append(right)
                _ = try await harness.service.secondFactors.verify(
                    challengeId: challenge.challengeId, code: right, factorId: nil)
            }
            #expect(await harness.service.state.status == .authenticated)
        }
        secrets += ["pending-", "secret1", "secret2"]
        #expect(!lines.all.isEmpty && errors.count == 2)
        for secret in secrets {
            #expect(!lines.all.contains { $0.contains(secret) }, "a log line holds a secret")
            #expect(!errors.contains { $0.contains(secret) }, "an error holds a secret")
        }
    }
}
