import Foundation
import NIOHTTP1
import SesameHTTP
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamectl sign-in google --browser` against local attackers (issue 31, items 1, 2 and 4):
/// the real sesamectl, daemon and emulator; the "browser" is a script that records its command
/// line, and the test then plays the person's browser (and the attacker's) over HTTP.
@Suite("browser sign-in end to end: the launch address and the binding", .serialized, .timeLimit(.minutes(4)))
struct BrowserLaunchTests {
    /// A running `sesamectl sign-in google --browser` and the command line its browser got.
    struct Run {
        let child: ChildProcess
        let argumentsFile: String

        static func start(_ daemon: DaemonProcess) async throws -> Run {
            let tag = UUID().uuidString.prefix(8)
            let argumentsFile = daemon.directory + "/browser-argv-\(tag)"
            let script = daemon.directory + "/fake-browser-\(tag)"
            try """
            #!/bin/sh
            printf '%s\\n' "$0" "$@" > '\(argumentsFile).tmp' && mv '\(argumentsFile).tmp' '\(argumentsFile)'

            """.write(toFile: script, atomically: true, encoding: .utf8)
            chmod(script, 0o755)
            let child = try await ChildProcess(
                BuiltBinaries.path("sesamectl"), ["sign-in", "google", "--browser", "--socket", daemon.socketPath],
                environment: ["BROWSER": script], logPrefix: daemon.directory + "/ctl-\(tag)")
            return Run(child: child, argumentsFile: argumentsFile)
        }

        /// The browser's command line, one argument a line, once it ran.
        func browserArguments() async throws -> [String] {
            try await eventually("sesamectl opened the browser", timeout: .seconds(30)) {
                FileManager.default.fileExists(atPath: argumentsFile)
            }
            return try String(contentsOfFile: argumentsFile, encoding: .utf8).split(separator: "\n").map(String.init)
        }

        /// The launch address the browser was given.
        func launchAddress() async throws -> String { try #require(try await browserArguments().last) }
    }

    /// The flow's `state` in a provider URL: its own `state` (Firebase's authUri), or the one in
    /// the loopback `redirect_to` (Supabase's /authorize).
    static func state(in url: String) -> String? {
        let items = URLComponents(string: url)?.queryItems ?? []
        if let state = items.first(where: { $0.name == "state" })?.value { return state }
        return items.first(where: { $0.name == "redirect_to" })?.value.flatMap { state(in: $0) }
    }

    /// `http://127.0.0.1:PORT/callback` of the listener behind a launch address.
    static func callbackPrefix(_ launch: String) -> String {
        TestBrowser.origin(of: launch) + "/callback"
    }

    /// `url` with its `state` replaced.
    static func replacingState(_ url: String, with state: String) -> String {
        guard var components = URLComponents(string: url) else { return url }
        components.queryItems = components.queryItems?.map {
            $0.name == "state" ? .init(name: "state", value: state) : $0
        }
        return components.string ?? url
    }

    /// Opens the launch address in `browser`: the provider URL it redirects to.
    /// A browser sign-in started by sesamectl, its launch address, the person's browser and a
    /// second client (an attacker's, or another browser); both browsers are shut down after.
    static func withLaunchedFlow(
        _ daemon: DaemonProcess, _ body: (Run, String, TestBrowser, TestBrowser) async throws -> Void
    ) async throws {
        let run = try await Run.start(daemon)
        let launch = try await run.launchAddress()
        let browser = TestBrowser()
        let other = TestBrowser()
        defer { Task { await browser.shutdown() } }
        defer { Task { await other.shutdown() } }
        try await body(run, launch, browser, other)
    }

    static func open(_ launch: String, in browser: TestBrowser) async throws -> String {
        let opened = try await browser.send(launch)
        #expect(opened.status == 302)
        return try #require(opened.headers.first(name: "Location"))
    }

    @Test(
        "the browser gets a one-time launch address, never the provider's URL or state; through it the person signs in",
        arguments: TestBackend.allCases)
    func signsInThroughTheLaunchAddress(backend: TestBackend) async throws {
        try await withEmulatorAndDaemon(backend: backend) { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            let run = try await Run.start(daemon)
            let arguments = try await run.browserArguments()
            let launch = try #require(arguments.last)
            #expect(launch.hasPrefix("http://127.0.0.1:") && launch.contains("/launch/"), "\(arguments)")
            let browser = TestBrowser()
            defer { Task { await browser.shutdown() } }
            let provider = try await Self.open(launch, in: browser)
            let state = try #require(Self.state(in: provider))
            #expect(!arguments.contains { $0.contains(state) || $0.contains("authorize") }, "the command line")
            // Nor is it in the state any program reads while the flow is open.
            let wire = try await daemon.wireState()
            #expect(wire["signInPrompt"]?["flow"]?.stringValue == "browser")
            #expect(!wire.jsonString.contains(state) && !wire.jsonString.contains("authorize"))
            var visited: [String] = []
            let callback = try await browser.follow(
                provider, consentingAs: "launch-\(backend.rawValue)@example.com", until: Self.callbackPrefix(launch),
                visited: &visited)
            let page = try await browser.send(callback)
            #expect(page.status == 200 && TestBrowser.text(page).contains("Signed in"))
            #expect(try await run.child.waitForExit(timeout: .seconds(60)) == 0, "\(run.child.stderr)")
            let after = try await daemon.stateJSON()
            #expect(after["status"] as? String == "authenticated")
            if backend == .firebase { #expect((after["user"] as? [String: Any])?["uid"] as? String == guest) }
            #expect(
                !daemon.log.contains(state) && !run.child.stdout.contains(state) && !run.child.stderr.contains(state))
        }
    }

    @Test("a forged callback with another state is refused; sesamectl keeps waiting and the browser's own completes")
    func forgedStateLeavesTheFlowWaiting() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            try await Self.withLaunchedFlow(daemon) { run, launch, browser, attacker in
                let provider = try await Self.open(launch, in: browser)
                var visited: [String] = []
                let callback = try await browser.follow(
                    provider, consentingAs: "person@example.com", until: Self.callbackPrefix(launch), visited: &visited)
                // Any local user can reach the loopback port; a page the attacker makes the person's
                // browser open carries the binding cookie too.
                for sender in [attacker, browser] {
                    let forged = try await sender.send(Self.replacingState(callback, with: "forged-state"))
                    #expect(forged.status == 400 && TestBrowser.text(forged).contains("does not belong"))
                }
                #expect(run.child.isRunning, "sesamectl still waits")
                let open = try await daemon.wireState()
                #expect(open["signInPrompt"]?["flow"]?.stringValue == "browser" && open["status"] == "anonymous")
                let page = try await browser.send(callback)
                #expect(page.status == 200 && TestBrowser.text(page).contains("Signed in"))
                #expect(try await run.child.waitForExit(timeout: .seconds(60)) == 0, "\(run.child.stderr)")
                let after = try await daemon.stateJSON()
                #expect(after["status"] as? String == "authenticated")
                #expect((after["user"] as? [String: Any])?["uid"] as? String == guest)
            }
        }
    }

    @Test("a callback with the stolen state but without the launch binding signs nobody in and ends the flow")
    func stolenStateWithoutTheBinding() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            try await Self.withLaunchedFlow(daemon) { run, launch, browser, attacker in
                let provider = try await Self.open(launch, in: browser)
                // The attacker learnt the provider's URL (with the state), approves it as itself and
                // sends the callback from its own client: it has no binding cookie.
                var visited: [String] = []
                let stolen = try await attacker.follow(
                    provider, consentingAs: "attacker@example.com", until: Self.callbackPrefix(launch),
                    visited: &visited)
                let refused = try await attacker.send(stolen)
                #expect(refused.status == 403 && TestBrowser.text(refused).contains("nobody was signed in"))
                #expect(try await run.child.waitForExit(timeout: .seconds(30)) == 1)
                #expect(run.child.stderr.contains("stopped the sign-in"), "\(run.child.stderr)")
                let after = try await daemon.wireState()
                #expect(after["status"]?.stringValue == "anonymous" && after["user"]?["uid"]?.stringValue == guest)
                #expect(after["signInPrompt"] == .null, "the flow was cancelled")
                #expect(after["user"]?.jsonString.contains("attacker@example.com") == false)
            }
        }
    }

    @Test("a second fetch of the launch address ends the flow; nobody is signed in")
    func secondLaunchEndsTheFlow() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            let guest = try #require(try await daemon.uid())
            try await Self.withLaunchedFlow(daemon) { run, launch, browser, other in
                _ = try await Self.open(launch, in: browser)
                let again = try await other.send(launch)
                #expect(again.status == 403 && again.headers.first(name: "Location") == nil)
                #expect(TestBrowser.text(again).contains("opened a second time"))
                #expect(try await run.child.waitForExit(timeout: .seconds(30)) == 1)
                #expect(run.child.stderr.contains("stopped the sign-in"), "\(run.child.stderr)")
                let after = try await daemon.wireState()
                #expect(after["status"]?.stringValue == "anonymous" && after["user"]?["uid"]?.stringValue == guest)
                #expect(after["signInPrompt"] == .null)
            }
        }
    }
}
