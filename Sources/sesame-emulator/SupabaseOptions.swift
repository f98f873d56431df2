import ArgumentParser
import Foundation
import SesameEmulator

/// The `--supabase-*` options; `--supabase-port` absent means no Supabase surface.
struct SupabaseOptions: ParsableArguments {
    @Option(
        help: "Serve Supabase Auth (/auth/v1) and the PostgREST subset (/rest/v1) on this port (0 picks a free port).")
    var supabasePort: Int?

    @Option(
        help: ArgumentHelp(
            "HS256 secret for the anon and service_role keys (and access tokens with --supabase-signing-key hs256).",
            valueName: "secret"))
    var supabaseJwtSecret: String = SupabaseEmulatorConfiguration.developmentSecret

    @Option(help: ArgumentHelp("The publishable API key (the anon key of new projects).", valueName: "key"))
    var supabasePublishableKey: String = SupabaseEmulatorConfiguration.developmentPublishableKey

    @Option(help: ArgumentHelp("The secret API key (the service_role key of new projects).", valueName: "key"))
    var supabaseSecretKey: String = SupabaseEmulatorConfiguration.developmentSecretKey

    @Option(
        help: ArgumentHelp(
            "How access tokens are signed: es256 (as new hosted projects), rs256, or hs256 (the legacy JWT secret).",
            valueName: "es256|rs256|hs256"))
    var supabaseSigningKey: SupabaseSigningAlgorithm = .es256

    @Option(
        help: ArgumentHelp(
            "A JWK set as GoTrue's GOTRUE_JWT_KEYS takes it: a JSON array of private JWKs (EC P-256, RSA, oct), "
                + "or a file holding one. The key whose key_ops has \"sign\" signs access tokens, every key "
                + "verifies, and /.well-known/jwks.json lists the asymmetric ones; --supabase-signing-key is then unused.",
            valueName: "json|file"))
    var supabaseJwtKeys: String?

    /// `--supabase-jwt-keys`, read (from its file when it is not JSON itself) and parsed.
    func jwtKeys() throws -> SupabaseJWKSet? {
        guard let value = supabaseJwtKeys else { return nil }
        var text = value
        if !value.trimmingCharacters(in: .whitespacesAndNewlines).hasPrefix("[") {
            guard let contents = try? String(contentsOfFile: value, encoding: .utf8) else {
                // Named only when it reads as a path: an inline key set may hold private keys.
                let named = value.contains(where: { "{}\"".contains($0) }) || value.count > 200 ? "the value" : value
                throw ValidationError("--supabase-jwt-keys: \(named) is neither a JSON array nor a readable file")
            }
            text = contents
        }
        do { return try SupabaseJWKSet(json: text) } catch { throw ValidationError("\(error)") }
    }

    @Option(help: ArgumentHelp("Access-token lifetime.", valueName: "seconds"))
    var supabaseJwtExpiry: Int = 3600

    @Option(help: ArgumentHelp("How long a rotated refresh token may still be used.", valueName: "seconds"))
    var supabaseRefreshReuseInterval: Int = 10

    @Option(help: ArgumentHelp("Confirm email addresses without a mail.", valueName: "true|false"))
    var supabaseAutoconfirm: Bool = true

    @Option(
        help: ArgumentHelp("Allow anonymous sign-ins (POST /auth/v1/signup with no email).", valueName: "true|false"))
    var supabaseAnonymous: Bool = true

    @Option(
        help: ArgumentHelp(
            "The deployed delete-account function (POST /rest/v1/rpc/NAME), or none.", valueName: "name|none"))
    var supabaseDeleteFunction: String = "delete_user"

    @Option(
        help: ArgumentHelp(
            "Password changes from a session older than 24 hours need the GET /auth/v1/reauthenticate nonce.",
            valueName: "true|false"))
    var supabaseSecurePasswordChange: Bool = false

    @Option(
        help: ArgumentHelp(
            "Email changes are confirmed from both addresses (when autoconfirm is off).", valueName: "true|false"))
    var supabaseSecureEmailChange: Bool = true

    @Option(
        help: ArgumentHelp(
            "The header naming the client (GOTRUE_RATE_LIMIT_HEADER, e.g. X-Forwarded-For): with it, the MFA "
                + "challenge and verify limit applies per client (15 a minute, burst 30).",
            valueName: "name"))
    var supabaseRateLimitHeader: String?

    @Option(
        name: .customLong("supabase-extra-port"),
        help: ArgumentHelp(
            "Also serve Supabase on PORT over the same users, sessions and tables (repeatable), with the "
                + "main port's settings except those given: layout=gateway|gotrue (gotrue: GoTrue alone at /, no "
                + "apikey, as a bare GoTrue server), autoconfirm=, signup=, anonymous=, phone= (true|false; phone: "
                + "/resend takes a number, which no user has), jwt-secret=, "
                + "jwt-keys=FILE, jwt-expiry=SECONDS, signing-key=es256|rs256|hs256.",
            valueName: "port[:name=value,...]"))
    var supabaseExtraPorts: [SupabaseExtraPort] = []

    /// The further ports' configurations.
    func extraPorts() throws -> [SupabaseEmulatorConfiguration] {
        guard let main = configuration else {
            if supabaseExtraPorts.isEmpty { return [] }
            throw ValidationError("--supabase-extra-port needs --supabase-port")
        }
        return try supabaseExtraPorts.map { try $0.configuration(over: main) }
    }

    func validate() throws {
        _ = try extraPorts()
        if let supabasePort, !(0...65535).contains(supabasePort) {
            throw ValidationError("--supabase-port must be between 0 and 65535")
        }
        if supabaseJwtSecret.utf8.count < 32 {
            throw ValidationError("--supabase-jwt-secret must be at least 32 characters, as Supabase requires")
        }
        if !supabasePublishableKey.hasPrefix("sb_publishable_") || supabasePublishableKey.count < 20 {
            throw ValidationError(
                "--supabase-publishable-key must look like sb_publishable_… (as Supabase issues them)")
        }
        if !supabaseSecretKey.hasPrefix("sb_secret_") || supabaseSecretKey.count < 15 {
            throw ValidationError("--supabase-secret-key must look like sb_secret_… (as Supabase issues them)")
        }
        _ = try jwtKeys()
        if supabaseJwtExpiry < 1 { throw ValidationError("--supabase-jwt-expiry must be at least 1 second") }
        if supabaseRefreshReuseInterval < 0 {
            throw ValidationError("--supabase-refresh-reuse-interval must be 0 or more")
        }
        if supabaseDeleteFunction.isEmpty
            || !supabaseDeleteFunction.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        {
            throw ValidationError("--supabase-delete-function must be a function name (letters, digits, _) or none")
        }
    }

    /// The configuration, or `nil` without `--supabase-port`.
    var configuration: SupabaseEmulatorConfiguration? {
        guard let supabasePort else { return nil }
        var configuration = SupabaseEmulatorConfiguration(
            port: supabasePort, jwtSecret: supabaseJwtSecret, publishableKey: supabasePublishableKey,
            secretKey: supabaseSecretKey, signingAlgorithm: supabaseSigningKey,
            jwtExpirySeconds: supabaseJwtExpiry,
            refreshReuseIntervalSeconds: supabaseRefreshReuseInterval, autoconfirm: supabaseAutoconfirm,
            anonymousSignIns: supabaseAnonymous,
            deleteFunction: supabaseDeleteFunction == "none" ? nil : supabaseDeleteFunction,
            securePasswordChange: supabaseSecurePasswordChange, secureEmailChange: supabaseSecureEmailChange,
            rateLimitHeader: supabaseRateLimitHeader)
        configuration.jwtKeys = try? jwtKeys()  // validate() has refused a bad one
        return configuration
    }
}

extension SupabaseSigningAlgorithm: ExpressibleByArgument {}
