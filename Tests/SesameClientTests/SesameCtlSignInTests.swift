import ArgumentParser
import Foundation
import SesameClient
import Testing

@testable import sesamectl

/// `sesamectl sign-in`'s pure parts: which arguments mean a provider, the device prompt, the
/// waiting line, the custom token file, the status row and the advice for the flows' reasons.
@Suite("sesamectl sign-in flows")
struct SesameCtlSignInTests {
    static let headless: [String: String] = [:]

    static func mode(
        _ argument: String?, device: Bool = false, browser: Bool = false, tokenFile: String? = nil,
        passwordStdin: Bool = false, noQR: Bool = false, environment: [String: String] = headless
    ) throws -> SignInMode {
        try SignInMode.resolve(
            argument: argument, device: device, browser: browser, customTokenFile: tokenFile,
            passwordStdin: passwordStdin, noQR: noQR, environment: environment)
    }

    @Test func theFourShortNamesAndTheirIdsAreProvidersAnythingElseIsAnAccount() throws {
        #expect(try Self.mode("google") == .flow(providerId: "google.com", kind: .device))
        #expect(try Self.mode("GitHub") == .flow(providerId: "github.com", kind: .device))
        #expect(try Self.mode("apple.com") == .flow(providerId: "apple.com", kind: .device))
        #expect(try Self.mode("microsoft") == .flow(providerId: "microsoft.com", kind: .device))
        #expect(try Self.mode("ann@example.com") == .password(identifier: "ann@example.com"))
        #expect(try Self.mode("Ann.Lee") == .password(identifier: "Ann.Lee"))
        #expect(try Self.mode("keycloak.example") == .password(identifier: "keycloak.example"))
        #expect(try Self.mode("ann", passwordStdin: true) == .password(identifier: "ann"))
    }

    @Test func deviceOrBrowserMakesAnyArgumentAProviderId() throws {
        #expect(try Self.mode("oidc.keycloak", device: true) == .flow(providerId: "oidc.keycloak", kind: .device))
        #expect(try Self.mode("github", browser: true) == .flow(providerId: "github.com", kind: .browser))
        #expect(
            try Self.mode("google", device: true, environment: ["DISPLAY": ":0"])
                == .flow(providerId: "google.com", kind: .device))
        #expect(throws: ValidationError.self) { try Self.mode("google", device: true, browser: true) }
        #expect(throws: ValidationError.self) { try Self.mode("google", passwordStdin: true) }
    }

    @Test func theDefaultFlowIsTheBrowserOnlyInAGraphicalSession() throws {
        #expect(
            try Self.mode("google", environment: ["DISPLAY": ":0"]) == .flow(providerId: "google.com", kind: .browser))
        #expect(
            try Self.mode("google", environment: ["WAYLAND_DISPLAY": "wayland-0"])
                == .flow(providerId: "google.com", kind: .browser))
        #expect(try Self.mode("google", environment: ["DISPLAY": ""]) == .flow(providerId: "google.com", kind: .device))
        #expect(
            try Self.mode("google", environment: ["TERM": "xterm"]) == .flow(providerId: "google.com", kind: .device))
    }

    @Test func aCustomTokenFileTakesNothingElse() throws {
        #expect(
            try Self.mode(nil, tokenFile: "/run/credentials/enroll") == .customToken(path: "/run/credentials/enroll"))
        #expect(try Self.mode(nil, tokenFile: "-") == .customToken(path: "-"))
        #expect(throws: ValidationError.self) { try Self.mode("google", tokenFile: "f") }
        #expect(throws: ValidationError.self) { try Self.mode(nil, device: true, tokenFile: "f") }
        #expect(throws: ValidationError.self) { try Self.mode(nil) }
        #expect(throws: ValidationError.self) { try Self.mode("ann@example.com", noQR: true) }
    }

    @Test func theCommandLineReachesTheMode() throws {
        let command = try SignInCommand.parse(["github", "--device", "--no-qr", "--json"])
        #expect(try command.mode(environment: [:]) == .flow(providerId: "github.com", kind: .device))
        #expect(command.noQR && command.options.json)
        let token = try SignInCommand.parse(["--custom-token-file", "-"])
        #expect(try token.mode(environment: [:]) == .customToken(path: "-"))
        #expect(throws: (any Error).self) { try SignInCommand.parse(["google", "--device", "--browser"]) }
    }

    static func flow(complete: String? = nil, code: String? = "WDJB-MJHT") -> SesameSignInFlow {
        SesameSignInFlow(
            flowId: "f1", providerId: "google.com", flow: "device", status: "pending",
            verificationUri: "https://www.google.com/device", verificationUriComplete: complete, userCode: code,
            authorizationUrl: nil, expiresAt: Date(timeIntervalSince1970: 1_800_000_900), intervalSeconds: 5,
            purpose: "sign-in")
    }

    @Test func theDevicePromptShowsThePageTheCodeAndAQRCodeOfThePage() throws {
        let lines = DevicePrompt.lines(for: Self.flow(), qr: true, colours: false)
        #expect(lines.contains("    https://www.google.com/device"))
        #expect(lines.contains("    WDJB-MJHT"))
        #expect(lines.contains("and enter the code:"))
        let symbol = try #require(QRCode(encoding: "https://www.google.com/device"))
        let drawn = TerminalQRCode(colours: false).lines(for: symbol)
        #expect(lines.joined(separator: "\n").contains(drawn.joined(separator: "\n")))
        #expect(!lines.joined().contains("\u{1B}"), "no ANSI escapes when standard output is not a terminal")
        let coloured = DevicePrompt.lines(for: Self.flow(), qr: true, colours: true)
        #expect(coloured.joined().contains("\u{1B}[30;47m"))
    }

    @Test func theCompleteURLIsPreferredAndNoQRLeavesTheSymbolOut() throws {
        let complete = "https://www.google.com/device?user_code=WDJB-MJHT"
        let lines = DevicePrompt.lines(for: Self.flow(complete: complete), qr: false, colours: true)
        #expect(lines.contains("    \(complete)"))
        #expect(lines.contains("and check that it shows the code:"))
        #expect(!lines.joined().contains("\u{2588}") && !lines.joined().contains("\u{1B}"))
        #expect(!lines.contains("Or scan this QR code:"))
    }

    @Test func theWaitingLineCountsDown() {
        let deadline = Date(timeIntervalSince1970: 1_000)
        let indicator = WaitingIndicator(label: "Waiting for approval…", deadline: deadline, animated: true)
        #expect(
            indicator.line(frame: 1, now: Date(timeIntervalSince1970: 1_000 - 14 * 60 - 32))
                == "⠙ Waiting for approval… 14:32 left (Ctrl-C cancels)")
        #expect(
            indicator.line(frame: 10, now: Date(timeIntervalSince1970: 2_000)).hasSuffix("0:00 left (Ctrl-C cancels)"))
        #expect(indicator.line(frame: 10, now: deadline).hasPrefix("⠋ "))
    }

    @Test func aCustomTokenIsTrimmedAndNeverInAnError() throws {
        #expect(try CustomTokenReader.token(from: Data("  eyJ.tok.en \n".utf8), source: "f") == "eyJ.tok.en")
        #expect(throws: ValidationError.self) { try CustomTokenReader.token(from: Data(" \n".utf8), source: "f") }
        let big = Data(repeating: UInt8(ascii: "x"), count: CustomTokenReader.maximumBytes + 1)
        #expect(throws: ValidationError.self) { try CustomTokenReader.token(from: big, source: "f") }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("token-\(UUID().uuidString)")
        try Data("secret-token-value\n".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        #expect(try CustomTokenReader.read(file.path) == "secret-token-value")
        let missing = #expect(throws: ValidationError.self) { try CustomTokenReader.read(file.path + ".missing") }
        #expect(missing?.message.contains("secret") == false)
    }

    @Test func statusShowsTheOpenPrompt() {
        let prompt = SesameSignInPrompt(
            flowId: "f1", providerId: "google.com", flow: "device", verificationUri: "https://www.google.com/device",
            verificationUriComplete: nil, userCode: "WDJB-MJHT", expiresAt: Date(timeIntervalSince1970: 1_800_000_900))
        var state = SesameCtlOutputTests.state(status: .anonymous, user: SesameUser(uid: "g", isAnonymous: true))
        #expect(!StatusRenderer.render(state, now: SesameCtlOutputTests.now).contains("sign-in:"))
        state.signInPrompt = prompt
        let text = StatusRenderer.render(state, now: SesameCtlOutputTests.now)
        #expect(
            text.contains(
                "sign-in:         google.com device flow open until 2027-01-15T08:15:00Z: open https://www.google.com/device, code WDJB-MJHT"
            ))
    }

    @Test func theFlowsReasonsSayWhatToDoNext() {
        func message(_ reason: String, _ context: ErrorContext) -> ErrorReport {
            ErrorReport.make(
                for: .daemon(.init(code: 1000, reason: reason, message: "m")), socketPath: "/s", context: context)
        }
        let retry = ErrorContext.signInFlow(retry: "sesamectl sign-in github --device")
        for reason in ["access-denied", "expired-sign-in-flow", "sign-in-cancelled", "invalid-credential"] {
            let report = message(reason, retry)
            #expect(report.status == .failure)
            #expect(report.message.contains("`sesamectl sign-in github --device`"), "\(reason)")
        }
        #expect(message("invalid-custom-token", .general).message.contains("ask your project's server for a new one"))
        #expect(message("access-denied", .general).message.contains("sesamectl sign-in PROVIDER"))
    }

    @Test func theBrowsersPageForAFailureSaysWhatTheTerminalSays() {
        let denied = SesameClientError.daemon(.init(code: 1000, reason: "access-denied", message: "m"))
        let page = InteractiveSignIn.page(for: denied, retry: "sesamectl sign-in google --browser")
        #expect(page.title == "Sign-in failed")
        #expect(page.message.contains("denied at the provider: run `sesamectl sign-in google --browser`"))
        #expect(InteractiveSignIn.page(for: CancellationError(), retry: "x") == .cancelled)
    }

    @Test func theBrowserCommandsFollowXdgOpen() {
        let url = "https://accounts.example/auth?x=1"
        #expect(BrowserLauncher(environment: [:]).commands(for: url) == [["xdg-open", url]])
        #expect(
            BrowserLauncher(environment: ["BROWSER": "firefox --new-window:w3m %s"]).commands(for: url) == [
                ["firefox", "--new-window", url], ["w3m", url], ["xdg-open", url],
            ])
    }
}

/// `TerminalText`: what a terminal would obey is shown instead.
@Suite("sesamectl's terminal text")
struct TerminalTextTests {
    @Test("C0 but newline and tab, DEL and C1 are shown as cat -v does; everything else is kept")
    func sanitized() {
        #expect(TerminalText.sanitized("plain ümlaut 名前\tand\nlines") == "plain ümlaut 名前\tand\nlines")
        #expect(TerminalText.sanitized("a\u{1B}[31mred\u{1B}[0m") == "a^[[31mred^[[0m")
        #expect(TerminalText.sanitized("\u{00}\u{07}\u{08}\r\u{7F}") == "^@^G^H^M^?")
        #expect(TerminalText.sanitized("\u{9B}2J\u{85}\u{9F}") == "M-^[2JM-^EM-^_")
        #expect(TerminalText.sanitized("\u{A0}") == "\u{A0}")
    }
}
