import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, items 9 and 11: `sesamectl` that gives up on a second factor (a wrong code from
/// standard input, SIGINT while it waits for the code) cancels the challenge, and says one
/// clear line.
@Suite("sesamectl: giving up on a second factor", .serialized, .timeLimit(.minutes(3)))
struct SesamectlSecondFactorPromptTests {
    typealias Support = SecondFactorTestSupport

    @Test("--code-stdin with a wrong code: one clear line, no prompt, and status no longer waits for a code")
    func wrongCodeFromStandardInput() async throws {
        try await Support.withDaemon(.supabase) { emulator, daemon in
            let email = "ctl-wrong@example.com"
            let (_, secret, _) = try await Support.protectedAccountAndGuest(email, on: daemon, at: emulator)
            let wrong = try EmulatorProcess.wrongTotpCode(secret)
            let signIn = try await daemon.ctl(
                ["sign-in", email, "--password-stdin", "--code-stdin"], stdin: "secret12\n\(wrong)\n")
            #expect(signIn.status == 1)
            let said = signIn.stderr.split(separator: "\n")
            // Where the code came from, then one clear line.
            #expect(said.count == 2, "\(signIn.stderr)")
            #expect(said.first?.hasSuffix("second factor (phone): reading its code from standard input") == true)
            #expect(
                said.last?.hasPrefix("sesamectl: that code is not right: nothing changed; sign in again") == true,
                "\(said)")
            for prompt in ["either", "Code from your authenticator app", "enter the 6-digit code"] {
                #expect(!signIn.stderr.contains(prompt))
            }
            #expect(try await daemon.wireState()["secondFactor"] == .null)
            let status = try await daemon.ctl(["status"])
            #expect(!status.stdout.contains("waits for a code"), "\(status.stdout)")
        }
    }

    @Test("SIGINT while sesamectl waits for the code: the challenge is cancelled", arguments: [SIGINT, SIGTERM])
    func interruptedWhileWaitingForTheCode(signal: Int32) async throws {
        try await Support.withDaemon(.firebase) { emulator, daemon in
            let email = "ctl-interrupt-\(signal)@example.com"
            _ = try await Support.protectedAccountAndGuest(email, on: daemon, at: emulator)
            let directory = try makeTemporaryDirectory("ctl-int")
            defer { try? FileManager.default.removeItem(atPath: directory) }
            let (out, err) = (directory + "/out", directory + "/err")
            var ends: [Int32] = [-1, -1]
            guard pipe(&ends) == 0 else { throw HarnessError("pipe() failed: errno \(errno)") }
            for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
            let input = FileHandle(fileDescriptor: ends[1], closeOnDealloc: true)
            defer { try? input.close() }
            let process: SpawnedProcess
            do {
                defer { close(ends[0]) }
                process = try await SpawnedProcess.launch(
                    BuiltBinaries.path("sesamectl"), ["sign-in", email, "--password-stdin", "--code-stdin"],
                    environment: SpawnedProcess.environment(["SESAME_SOCKET": daemon.socketPath]),
                    stdin: .descriptor(ends[0]), stdout: .file(out), stderr: .file(err))
            }
            // The password only: the command then waits for the code's line.
            try input.write(contentsOf: Data("secret12\n".utf8))
            try await eventually("the challenge is open") {
                try await daemon.wireState()["secondFactor"]?["challengeId"]?.stringValue != nil
            }
            // sesamectl watches signals from before its sign-in call: once the challenge is open,
            // one signal is enough.
            process.signal(signal)
            try await eventually("sesamectl exits") { !process.isRunning }
            #expect(process.exitStatus == 128 + signal)
            let said = (try? String(contentsOfFile: err, encoding: .utf8)) ?? ""
            #expect(said.contains("Sign-in cancelled"), "\(said)")
            #expect(try await daemon.wireState()["secondFactor"] == .null)
        }
    }
}
