import ArgumentParser

/// What `sesamectl sign-in` was asked to do, read from its arguments (docs/sesamectl.md,
/// sign-in). Pure: the environment is passed in.
///
/// An argument names a provider when it is one of the short names (`google`, `github`,
/// `apple`, `microsoft`, any case) or their ids (`google.com`, …), or when `--device` or
/// `--browser` is given (then any provider id); anything else is an email or a username,
/// signed in with a password. A username that is one of those words signs in by its email.
enum SignInMode: Equatable, Sendable {
    case password(identifier: String)
    case flow(providerId: String, kind: SignInFlowKind)
    /// `path` is a file, or `-` for standard input.
    case customToken(path: String)

    /// The built-in providers' short names and ids.
    static let shortNames = [
        "google": "google.com", "github": "github.com", "apple": "apple.com", "microsoft": "microsoft.com",
    ]

    /// The provider id `argument` names without `--device` or `--browser`, or nil for an email or a username.
    static func knownProvider(_ argument: String) -> String? {
        let word = argument.lowercased()
        if let id = shortNames[word] { return id }
        return shortNames.values.contains(word) ? word : nil
    }

    /// The flow a provider uses without `--device` or `--browser`: browser where a graphical
    /// session is (`$DISPLAY` or `$WAYLAND_DISPLAY` set), else device.
    static func defaultFlow(environment: [String: String]) -> SignInFlowKind {
        let graphical = ["DISPLAY", "WAYLAND_DISPLAY"].contains { !(environment[$0] ?? "").isEmpty }
        return graphical ? .browser : .device
    }

    /// Reads the arguments of `sign-in`.
    /// - Throws: `ValidationError` (usage, status 2) for combinations that make no sense.
    static func resolve(
        argument: String?, device: Bool, browser: Bool, customTokenFile: String?, passwordStdin: Bool,
        noQR: Bool, environment: [String: String]
    ) throws -> SignInMode {
        if device && browser { throw ValidationError("choose one of --device and --browser") }
        if let path = customTokenFile {
            guard argument == nil, !device, !browser, !passwordStdin, !noQR else {
                throw ValidationError("--custom-token-file takes no other argument or flow option")
            }
            guard !path.isEmpty else {
                throw ValidationError("--custom-token-file needs a file name, or - for standard input")
            }
            return .customToken(path: path)
        }
        guard let argument, !argument.isEmpty else {
            throw ValidationError(
                "give an email, a username or a provider (google, github, …), or --custom-token-file FILE")
        }
        let explicit: SignInFlowKind? = device ? .device : (browser ? .browser : nil)
        let providerId: String? =
            explicit == nil ? knownProvider(argument) : (shortNames[argument.lowercased()] ?? argument)
        guard let providerId else {
            if noQR { throw ValidationError("--no-qr applies to the device flow of a provider") }
            return .password(identifier: argument)
        }
        if passwordStdin {
            throw ValidationError("--password-stdin applies to a password sign-in, not to \(providerId)")
        }
        return .flow(providerId: providerId, kind: explicit ?? defaultFlow(environment: environment))
    }
}

/// The interactive flows of PROTOCOL.md ("Sign-in flows").
enum SignInFlowKind: String, Sendable, Equatable {
    /// A code shown here and approved on any device (RFC 8628).
    case device
    /// A browser on this machine, back to a loopback listener (RFC 8252).
    case browser
}
