/// How the emulator's Supabase surface (GoTrue at `/auth/v1`, a PostgREST subset at `/rest/v1`)
/// behaves. The defaults are those of `supabase start`'s local stack, with rotation on and
/// hosted Supabase's 10-second reuse interval.
public struct SupabaseEmulatorConfiguration: Sendable {
    /// Supabase's well-known local development secret.
    public static let developmentSecret = "super-secret-jwt-token-with-at-least-32-characters-long"
    /// The publishable and secret API keys `supabase start` prints (its `apikeys.go` defaults).
    public static let developmentPublishableKey = "sb_publishable_ACJWlzQHlZjBrEguHvfOxg_3BJgxAaH"
    public static let developmentSecretKey = "sb_secret_N7UND0UgjKTVK-Uodkm0Hg_xSvEMPvz"

    /// The port; 0 picks a free one (read it back from ``SesameEmulator/supabasePort``).
    public var port: Int
    /// The HS256 secret the anon and service_role keys are signed with (and access tokens, with
    /// ``SupabaseSigningAlgorithm/hs256``).
    public var jwtSecret: String
    /// The opaque API keys new projects get: the gateway takes the publishable key as the anon
    /// key and the secret key as the service_role key (``SupabaseGateway``).
    public var publishableKey: String
    public var secretKey: String
    /// How access tokens are signed (`--supabase-signing-key`): ES256 by default, as new hosted
    /// projects; the anon and service_role keys are HS256 with ``jwtSecret`` whatever this says.
    public var signingAlgorithm: SupabaseSigningAlgorithm
    /// `--supabase-jwt-keys` (`GOTRUE_JWT_KEYS`): when set, these keys sign and verify access
    /// tokens and ``signingAlgorithm`` is not used.
    public var jwtKeys: SupabaseJWKSet? = nil
    /// What the port serves: Supabase's gateway layout (`/auth/v1`, `/rest/v1`, `apikey`
    /// checked), or GoTrue alone at `/` as a bare GoTrue server listens (no gateway, no PostgREST).
    public var layout: SupabasePortLayout = .gateway
    /// Whether new users may sign up (`GOTRUE_DISABLE_SIGNUP` off).
    public var signupEnabled = true
    /// `GOTRUE_EXTERNAL_PHONE_ENABLED`. The emulator sends no SMS and makes no phone users, so
    /// on it changes `/resend` alone: a valid E.164 number answers `{}`, as GoTrue answers for a
    /// number no user has; every other phone call answers as with the provider off.
    public var phoneEnabled = false
    /// Lifetime of access tokens, in seconds (`GOTRUE_JWT_EXP`).
    public var jwtExpirySeconds: Int
    /// How long a rotated refresh token may still be used (`GOTRUE_SECURITY_REFRESH_TOKEN_REUSE_INTERVAL`).
    public var refreshReuseIntervalSeconds: Int
    /// Whether email addresses count as confirmed without a mail (`GOTRUE_MAILER_AUTOCONFIRM`).
    public var autoconfirm: Bool
    /// Whether `POST /signup` without email or phone makes an anonymous user.
    public var anonymousSignIns: Bool
    /// The PostgREST function that deletes the caller's account (`delete_user`); `nil` = not
    /// deployed, so `POST /rest/v1/rpc/<name>` answers 404 `PGRST202`.
    public var deleteFunction: String?
    /// Whether `PUT /user {password}` from a session older than 24 hours needs the nonce of
    /// `GET /reauthenticate` (`GOTRUE_SECURITY_UPDATE_PASSWORD_REQUIRE_REAUTHENTICATION`; off in
    /// `supabase start`, as in GoTrue).
    public var securePasswordChange: Bool
    /// Whether an email change is confirmed from both addresses when addresses are confirmed by
    /// mail (`GOTRUE_MAILER_SECURE_EMAIL_CHANGE_ENABLED`, on by default as in GoTrue). With
    /// autoconfirm on, GoTrue takes either confirmation alone.
    public var secureEmailChange: Bool
    /// The request header that names the client (`GOTRUE_RATE_LIMIT_HEADER`, hosted Supabase
    /// sets one): with it, the per-client limits apply (the MFA challenge and verify bucket,
    /// ``MFARateLimiter``); without it (GoTrue's default), they do not.
    public var rateLimitHeader: String?
    /// `GOTRUE_MFA_RATE_LIMIT_CHALLENGE_AND_VERIFY`: requests per minute (burst 30).
    public var mfaRateLimitPerMinute: Double

    public init(
        port: Int = 54321,
        jwtSecret: String = SupabaseEmulatorConfiguration.developmentSecret,
        publishableKey: String = SupabaseEmulatorConfiguration.developmentPublishableKey,
        secretKey: String = SupabaseEmulatorConfiguration.developmentSecretKey,
        signingAlgorithm: SupabaseSigningAlgorithm = .es256,
        jwtExpirySeconds: Int = 3600,
        refreshReuseIntervalSeconds: Int = 10,
        autoconfirm: Bool = true,
        anonymousSignIns: Bool = true,
        deleteFunction: String? = "delete_user",
        securePasswordChange: Bool = false,
        secureEmailChange: Bool = true,
        rateLimitHeader: String? = nil,
        mfaRateLimitPerMinute: Double = 15
    ) {
        self.rateLimitHeader = rateLimitHeader
        self.mfaRateLimitPerMinute = mfaRateLimitPerMinute
        self.securePasswordChange = securePasswordChange
        self.secureEmailChange = secureEmailChange
        self.port = port
        self.jwtSecret = jwtSecret
        self.publishableKey = publishableKey
        self.secretKey = secretKey
        self.signingAlgorithm = signingAlgorithm
        self.jwtExpirySeconds = jwtExpirySeconds
        self.refreshReuseIntervalSeconds = refreshReuseIntervalSeconds
        self.autoconfirm = autoconfirm
        self.anonymousSignIns = anonymousSignIns
        self.deleteFunction = deleteFunction
    }
}

/// What a Supabase port serves.
public enum SupabasePortLayout: String, Sendable, CaseIterable {
    /// Supabase's gateway: GoTrue at `/auth/v1`, PostgREST at `/rest/v1`, each behind the `apikey` check.
    case gateway
    /// GoTrue alone at `/`, as the GoTrue server itself listens (supabase-py's and supabase-js's test servers).
    case gotrue
}
