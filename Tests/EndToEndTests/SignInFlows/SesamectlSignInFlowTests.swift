import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// `sesamectl sign-in` with a provider and with a token file, as a person runs it (issue 20):
/// the real sesamectl, daemon and emulator.
@Suite("sign-in flows end to end: sesamectl", .serialized, .timeLimit(.minutes(3)))
struct SesamectlSignInFlowTests {
    /// The user code sesamectl printed (`ABCD-EFGH` on a line of its own), once it has.
    private func printedCode(_ child: ChildProcess) -> String? {
        child.stdout.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.first {
            $0.count == 9 && $0.dropFirst(4).first == "-" && $0.allSatisfy { $0.isUppercase || $0 == "-" }
        }
    }

    private func sesamectl(_ daemon: DaemonProcess, _ arguments: [String]) async throws -> ChildProcess {
        try await ChildProcess(
            BuiltBinaries.path("sesamectl"), arguments + ["--socket", daemon.socketPath],
            environment: ["DISPLAY": "", "WAYLAND_DISPLAY": ""],
            logPrefix: daemon.directory + "/ctl-\(UUID().uuidString.prefix(8))")
    }

    @Test("sign-in google --device: URL, code and QR code; approved on the 'phone': signed in, uid kept")
    func deviceFlow() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            try await emulator.configureIdentityProviders(intervalSeconds: 1)
            let guest = try #require(try await daemon.uid())
            let child = try await sesamectl(daemon, ["sign-in", "google", "--device"])
            try await eventually("sesamectl printed the code") { printedCode(child) != nil }
            let code = try #require(printedCode(child))
            #expect(child.stdout.contains("/emulator/v1/idp/google.com/device"))
            #expect(child.stdout.contains("▀") || child.stdout.contains("▄"), "a QR code drawn with half blocks")
            #expect(!child.stdout.contains("\u{1B}["), "no ANSI colours when standard output is not a terminal")
            try await emulator.approveDevice(providerId: "google.com", userCode: code, email: "ctl@example.com")
            #expect(try await child.waitForExit(timeout: .seconds(60)) == 0, "\(child.stderr)")
            #expect(child.stdout.contains(guest))
            let state = try await daemon.stateJSON()
            #expect(state["status"] as? String == "authenticated")
            #expect((state["user"] as? [String: Any])?["uid"] as? String == guest)
        }
    }

    @Test("Ctrl-C while waiting: the flow is cancelled, exit 130, the guest as it was")
    func interruptCancels() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            let child = try await sesamectl(daemon, ["sign-in", "github", "--device", "--no-qr"])
            try await eventually("sesamectl printed the code") { printedCode(child) != nil }
            try await eventually("the daemon shows the prompt") {
                ((try? await daemon.stateJSON())?["signInPrompt"] as? [String: Any]) != nil
            }
            child.signal(SIGINT)
            #expect(try await child.waitForExit() == 130)
            #expect(child.stdout.contains("Sign-in cancelled") || child.stderr.contains("Sign-in cancelled"))
            let state = try await daemon.stateJSON()
            #expect(state["status"] as? String == "anonymous")
            #expect(state["signInPrompt"] is NSNull)
        }
    }

    @Test("sign-in --custom-token-file F: the fleet token signs the machine in; it is never printed")
    func customTokenFile() async throws {
        try await withEmulatorAndDaemon { emulator, daemon in
            let token = EmulatorProcess.unsignedCustomToken(uid: "ctl-fleet-1")
            let file = daemon.directory + "/fleet-token"
            try (token + "\n").write(toFile: file, atomically: true, encoding: .utf8)
            let result = try await daemon.ctl(["sign-in", "--custom-token-file", file])
            #expect(result.status == 0, "\(result.stderr)")
            #expect(!result.stdout.contains(token) && !result.stderr.contains(token))
            #expect(try await daemon.uid() == "ctl-fleet-1")
            #expect(try await daemon.ctl(["sign-out"]).status == 0)
            let refused = try await daemon.ctl(["sign-in", "--custom-token-file", "-"], stdin: "forged\n")
            #expect(refused.status == 1)
            #expect(refused.stderr.contains("token"))
        }
    }

    @Test("--custom-token-file reads at most its cap: an endless file (/dev/zero) is refused, not read to its end")
    func customTokenFileBounded() async throws {
        try await withEmulatorAndDaemon { _, daemon in
            let guest = try await daemon.uid()
            let endless = try await daemon.ctl(["sign-in", "--custom-token-file", "/dev/zero"])
            #expect(endless.status != 0)
            #expect(endless.stderr.contains("/dev/zero is larger than a custom token can be (64 KiB)"), "\(endless)")
            #expect(try await daemon.uid() == guest)
        }
    }
}
