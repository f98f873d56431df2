import Testing

@testable import SesameClient

@Suite("Socket path resolution")
struct SesameSocketPathTests {
    @Test func explicitEnvironmentVariableWins() {
        let path = SesameSocketPath.resolve(
            environment: ["SESAME_SOCKET": "/tmp/s.sock", "XDG_RUNTIME_DIR": "/run/user/1000"],
            fileExists: { _ in true })
        #expect(path == "/tmp/s.sock")
    }

    @Test func userInstanceWhenItsSocketExists() {
        let path = SesameSocketPath.resolve(
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000"],
            fileExists: { $0 == "/run/user/1000/sesame/sesamed.sock" })
        #expect(path == "/run/user/1000/sesame/sesamed.sock")
    }

    @Test func systemInstanceWhenTheUserSocketIsMissing() {
        let path = SesameSocketPath.resolve(
            environment: ["XDG_RUNTIME_DIR": "/run/user/1000"], fileExists: { _ in false })
        #expect(path == "/run/sesame/sesamed.sock")
    }

    @Test func systemInstanceWithoutRuntimeDirectory() {
        #expect(SesameSocketPath.resolve(environment: [:], fileExists: { _ in true }) == SesameSocketPath.system)
    }

    @Test func emptyVariablesAreIgnored() {
        let path = SesameSocketPath.resolve(
            environment: ["SESAME_SOCKET": "", "XDG_RUNTIME_DIR": ""], fileExists: { _ in true })
        #expect(path == SesameSocketPath.system)
    }

    @Test func trailingSlashOfRuntimeDirectory() {
        #expect(SesameSocketPath.user(runtimeDirectory: "/run/user/7/") == "/run/user/7/sesame/sesamed.sock")
    }
}
