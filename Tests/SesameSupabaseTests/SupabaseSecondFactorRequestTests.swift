import Foundation
import SesameCore
import SesameHTTP
import SesameSupabase
import SesameTesting
import Testing

/// Second factors and account security: the requests the adapter sends and how it reads GoTrue's answers.
@Suite("Supabase adapter: second factors and account security requests")
struct SupabaseSecondFactorRequestTests {
    static let aal1JWT = Fixtures.jwt(
        #"{"sub":"u-1","is_anonymous":false,"aal":"aal1","amr":[{"method":"password","timestamp":2}]}"#)
    static let aal2JWT = Fixtures.jwt(
        #"{"sub":"u-1","is_anonymous":false,"aal":"aal2","amr":[{"method":"totp","timestamp":3},{"method":"password","timestamp":2}]}"#
    )
    static let factors =
        #","email":"ann@example.com","factors":[{"id":"f-1","factor_type":"totp","status":"verified","friendly_name":"phone","created_at":"2026-11-21T10:00:00Z"},{"id":"f-2","factor_type":"totp","status":"unverified"}]"#
    static let userWithFactor = Fixtures.user(anonymous: false, extra: factors)

    @Test("an aal1 session of a user with a verified factor is secondFactorRequired, holding the tokens")
    func aal1IsNotASignIn() async throws {
        let transport = ScriptedTransport([
            Fixtures.session(jwt: Self.aal1JWT, refresh: "r-aal1", user: Self.userWithFactor)
        ])
        let thrown = await #expect(throws: RemoteAuthError.self) {
            _ = try await Fixtures.provider(transport).signIn(email: "ann@example.com", password: "pw-123456")
        }
        guard case .secondFactorRequired(let pending)? = thrown else {
            Issue.record("expected secondFactorRequired, got \(String(describing: thrown))")
            return
        }
        #expect(pending.uid == "u-1" && pending.email == "ann@example.com")
        #expect(
            pending.factors == [
                SecondFactor(
                    factorId: "f-1", type: "totp", displayName: "phone",
                    enrolledAt: Date(timeIntervalSince1970: 1_795_255_200))
            ])
        #expect(pending.credential == Self.aal1JWT && pending.secondaryCredential == "r-aal1")
        #expect(!pending.description.contains("r-aal1") && !pending.description.contains(Self.aal1JWT))
        #expect(thrown?.isTransient == false && thrown?.authError.reason == .secondFactorRequired)
    }

    @Test("an aal2 session, or a user without a verified factor, signs in as before")
    func otherSessionsSignIn() async throws {
        let transport = ScriptedTransport([
            Fixtures.session(jwt: Self.aal2JWT, user: Self.userWithFactor),
            Fixtures.session(jwt: Self.aal1JWT, user: Fixtures.user(anonymous: false)),
        ])
        let provider = Fixtures.provider(transport)
        #expect(try await provider.signIn(email: "ann@example.com", password: "pw-123456").uid == "u-1")
        #expect(try await provider.signIn(customToken: "hash").uid == "u-1")
    }

    @Test("completing: a new challenge, then verify with its id and the code, with the aal1 bearer")
    func completeSecondFactor() async throws {
        let transport = ScriptedTransport([
            .json(200, #"{"id":"c-1","type":"totp","expires_at":1800000300}"#),
            Fixtures.session(jwt: Self.aal2JWT, refresh: "r-aal2", user: Self.userWithFactor),
        ])
        let pending = PendingSecondFactor(
            uid: "u-1", email: nil, factors: [], credential: Self.aal1JWT, secondaryCredential: "r-aal1")
        let result = try await Fixtures.provider(transport).completeSecondFactor(
            pending, factorId: "f-1", code: " 123456 ")
        #expect(result.refreshToken.rawValue == "r-aal2")
        let snapshots = await transport.snapshots
        #expect(snapshots.count == 2)
        #expect(snapshots[0].hasPrefix("POST https://proj.supabase.co/auth/v1/factors/f-1/challenge\n"))
        #expect(snapshots[0].contains("authorization: Bearer \(Self.aal1JWT)"))
        #expect(snapshots[1].hasPrefix("POST https://proj.supabase.co/auth/v1/factors/f-1/verify\n"))
        #expect(snapshots[1].hasSuffix(#"{"challenge_id":"c-1","code":"123456"}"#))
    }

    @Test("a wrong code is invalid-verification-code; a refused aal1 token is expired-sign-in-flow")
    func completeErrors() async throws {
        let pending = PendingSecondFactor(uid: "u-1", email: nil, factors: [], credential: Self.aal1JWT)
        let wrong = ScriptedTransport([
            .json(200, #"{"id":"c-1","type":"totp","expires_at":1800000300}"#),
            .error(422, "mfa_verification_failed"),
        ])
        let refused = await #expect(throws: RemoteAuthError.self) {
            _ = try await Fixtures.provider(wrong).completeSecondFactor(pending, factorId: "f-1", code: "000000")
        }
        #expect(refused?.authError.reason == .invalidVerificationCode)
        for reply in [ScriptedTransport.Reply.error(403, "bad_jwt"), .error(403, "session_not_found")] {
            let expired = await #expect(throws: RemoteAuthError.self) {
                _ = try await Fixtures.provider(ScriptedTransport([reply])).completeSecondFactor(
                    pending, factorId: "f-1", code: "000000")
            }
            #expect(expired == .rejected(AuthError(.expiredSignInFlow)))
        }
    }

    @Test("enrolment: GET /user (no same-named factor), POST /factors; the secret, the URI and the factor id")
    func startEnrollment() async throws {
        let transport = ScriptedTransport([
            .json(200, Fixtures.user(anonymous: false)),
            .json(
                200,
                #"{"id":"f-9","type":"totp","friendly_name":"laptop","totp":{"qr_code":"<svg/>","secret":"JBSWY3DPEHPK3PXP","uri":"otpauth://totp/x:ann?secret=JBSWY3DPEHPK3PXP"}}"#
            ),
        ])
        let start = try await Fixtures.provider(transport).startTotpEnrollment(
            Fixtures.idToken(), displayName: "laptop")
        #expect(start.handle == "f-9" && start.secret == "JBSWY3DPEHPK3PXP" && start.otpauthUri.hasPrefix("otpauth://"))
        let snapshots = await transport.snapshots
        #expect(snapshots[1].hasPrefix("POST https://proj.supabase.co/auth/v1/factors\n"))
        #expect(snapshots[1].hasSuffix(#"{"factor_type":"totp","friendly_name":"laptop"}"#))
    }

    @Test("an unfinished enrolment of the same name is removed first; a verified one is refused without a call")
    func enrollmentNames() async throws {
        let transport = ScriptedTransport([
            .json(200, Self.userWithFactor), .json(200, #"{"id":"f-2"}"#),
            .json(200, #"{"id":"f-3","type":"totp","totp":{"secret":"JBSWY3DPEHPK3PXP","uri":"otpauth://totp/x"}}"#),
        ])
        _ = try await Fixtures.provider(transport).startTotpEnrollment(Fixtures.idToken(), displayName: nil)
        let snapshots = await transport.snapshots
        #expect(snapshots[1].hasPrefix("DELETE https://proj.supabase.co/auth/v1/factors/f-2\n"))
        #expect(snapshots[2].hasSuffix(#"{"factor_type":"totp"}"#))
        let refused = await #expect(throws: RemoteAuthError.self) {
            _ = try await Fixtures.provider(ScriptedTransport([.json(200, Self.userWithFactor)])).startTotpEnrollment(
                Fixtures.idToken(), displayName: "phone")
        }
        #expect(refused?.authError.reason == .operationNotAllowed)
    }

    @Test("lookup lists verified factors only, and new_email as the pending email")
    func lookup() async throws {
        let user = Fixtures.user(anonymous: false, extra: Self.factors + #","new_email":"new@example.com""#)
        let result = try await Fixtures.provider(ScriptedTransport([.json(200, user)])).lookup(Fixtures.idToken())
        #expect(result.factors.map(\.factorId) == ["f-1"] && result.pendingEmail == "new@example.com")
    }

    @Test("password change: PUT /user {password, nonce}; GoTrue's refusals map to the protocol's reasons")
    func changePassword() async throws {
        let transport = ScriptedTransport([.json(200, Fixtures.user(anonymous: false))])
        _ = try await Fixtures.provider(transport).changePassword(
            Fixtures.idToken(), newPassword: "new-pw-1", reauthenticationCode: "123456")
        #expect(await transport.snapshots.first?.hasSuffix(#"{"nonce":"123456","password":"new-pw-1"}"#) == true)
        let cases: [(ScriptedTransport.Reply, AuthError.Reason)] = [
            (.error(400, "reauthentication_needed"), .requiresRecentLogin),
            (.error(422, "reauthentication_not_valid"), .invalidVerificationCode),
            (.error(422, "weak_password"), .weakPassword), (.error(422, "same_password"), .weakPassword),
            (.error(401, "insufficient_aal"), .requiresRecentLogin),
        ]
        for (reply, reason) in cases {
            let refused = await #expect(throws: RemoteAuthError.self) {
                _ = try await Fixtures.provider(ScriptedTransport([reply])).changePassword(
                    Fixtures.idToken(), newPassword: "new-pw-1", reauthenticationCode: nil)
            }
            #expect(refused?.authError.reason == reason)
        }
    }

    @Test(
        "reauthentication code: GET /reauthenticate; email change: PUT /user {email}, a taken one is email-already-in-use"
    )
    func reauthenticateAndEmailChange() async throws {
        let transport = ScriptedTransport([.json(200, "{}"), .json(200, Fixtures.user(anonymous: false))])
        let provider = Fixtures.provider(transport)
        try await provider.sendReauthenticationCode(Fixtures.idToken())
        try await provider.requestEmailChange(Fixtures.idToken(), newEmail: "new@example.com")
        let snapshots = await transport.snapshots
        #expect(snapshots[0].hasPrefix("GET https://proj.supabase.co/auth/v1/reauthenticate\n"))
        #expect(snapshots[1].hasPrefix("PUT https://proj.supabase.co/auth/v1/user\n"))
        #expect(snapshots[1].hasSuffix(#"{"email":"new@example.com"}"#))
        let taken = await #expect(throws: RemoteAuthError.self) {
            try await Fixtures.provider(ScriptedTransport([.error(422, "email_exists")])).requestEmailChange(
                Fixtures.idToken(), newEmail: "new@example.com")
        }
        #expect(taken?.authError.reason == .emailAlreadyInUse)
    }

    @Test("password reset from a code: verify recovery, PUT /user with that session, then logout; the email comes back")
    func confirmPasswordReset() async throws {
        let user = Fixtures.user(anonymous: false, extra: #","email":"ann@example.com""#)
        let transport = ScriptedTransport([
            Fixtures.session(jwt: Self.aal1JWT, refresh: "r-rec", user: user), .json(200, user), .noContent,
        ])
        let email = try await Fixtures.provider(transport).confirmPasswordReset(
            .code("654321"), email: "ann@example.com", newPassword: "new-pw-1")
        #expect(email == "ann@example.com")
        let snapshots = await transport.snapshots
        #expect(snapshots[0].hasPrefix("POST https://proj.supabase.co/auth/v1/verify\n"))
        #expect(snapshots[0].hasSuffix(#"{"email":"ann@example.com","token":"654321","type":"recovery"}"#))
        #expect(snapshots[1].hasPrefix("PUT https://proj.supabase.co/auth/v1/user\n"))
        #expect(snapshots[1].contains("authorization: Bearer \(Self.aal1JWT)"))
        #expect(snapshots[2].hasPrefix("POST https://proj.supabase.co/auth/v1/logout?scope=local\n"))
    }

    @Test("password reset: a refused new password still ends the recovery session; a link sends its token hash")
    func confirmPasswordResetFailure() async throws {
        let user = Fixtures.user(anonymous: false, extra: #","email":"ann@example.com""#)
        let transport = ScriptedTransport([
            Fixtures.session(jwt: Self.aal1JWT, user: user), .error(422, "weak_password"), .noContent,
        ])
        let refused = await #expect(throws: RemoteAuthError.self) {
            _ = try await Fixtures.provider(transport).confirmPasswordReset(
                .link("https://proj.supabase.co/auth/v1/verify?token=HASH&type=recovery"), email: nil,
                newPassword: "new-pw-1")
        }
        #expect(refused?.authError.reason == .weakPassword)
        let snapshots = await transport.snapshots
        #expect(snapshots[0].hasSuffix(#"{"token_hash":"HASH","type":"recovery"}"#))
        #expect(snapshots.count == 3 && snapshots[2].hasPrefix("POST https://proj.supabase.co/auth/v1/logout"))
    }
}
