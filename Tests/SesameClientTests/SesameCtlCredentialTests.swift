import Testing

@testable import sesamectl

/// The pure parts of `sesamectl credential` and `sesamectl exec`: git's helper input, which
/// remotes may have the token, sesamectl.toml, and variable names.
@Suite("sesamectl credential and exec")
struct SesameCtlCredentialTests {
    @Test func readsGitsHelperInputUpToTheBlankLine() {
        let request = CredentialRequest(
            parsing: "protocol=https\nhost=git.example.com:8443\npath=team/repo.git\nwwwauth[]=Basic\n\nhost=evil\n")
        #expect(
            request == CredentialRequest(protocolName: "https", host: "git.example.com:8443", path: "team/repo.git"))
        #expect(CredentialRequest(parsing: "garbage\nprotocol=https\r\nhost=a.b\r\n").host == "a.b")
    }

    @Test(
        arguments: [
            ("https", "git.example.com", ["git.example.com"], true),
            ("https", "Git.Example.com", ["git.example.COM"], true),
            ("https", "git.example.com:8443", ["git.example.com:8443"], true),
            // An entry without a port does not cover another port.
            ("https", "git.example.com:8443", ["git.example.com"], false),
            ("https", "git.example.com", ["git.example.com:8443"], false),
            ("https", "other.example.com", ["git.example.com"], false),
            ("https", "git.example.com.evil.net", ["git.example.com"], false),
            // Plain HTTP only to a loopback address.
            ("http", "git.example.com", ["git.example.com"], false),
            ("http", "127.0.0.1:8080", ["127.0.0.1:8080"], true),
            ("http", "localhost:3000", ["localhost:3000"], true),
            ("http", "127.evil.example", ["127.evil.example"], false),
            ("ssh", "git.example.com", ["git.example.com"], false),
            // Nothing is listed by default.
            ("https", "git.example.com", [], false),
        ])
    func onlyListedHostsGetTheToken(scheme: String, host: String, allowed: [String], expected: Bool) {
        #expect(CredentialRequest(protocolName: scheme, host: host).isAllowed(by: allowed) == expected)
    }

    @Test func theAnswerHasTheTokenAsPassword() {
        #expect(CredentialRequest.answer(token: "T") == "username=sesame-id-token\npassword=T\n")
    }

    @Test func sesamectlTomlListsHostsAndRefusesUnknownKeys() throws {
        var configuration = CtlConfiguration()
        try configuration.apply("[credential]\nhosts = [\"a.example.com\"]\n", file: "/etc/x")
        try configuration.apply("[credential]\nhosts = [\"b.example.com\"]\n", file: "/home/x")
        #expect(configuration.credentialHosts == ["a.example.com", "b.example.com"])
        for bad in ["[credential]\nhost = []\n", "[other]\n", "[credential]\nhosts = [1]\n", "not toml ["] {
            var fresh = CtlConfiguration()
            #expect(throws: CtlConfiguration.Invalid.self) { try fresh.apply(bad, file: "f") }
        }
        #expect(
            CtlConfiguration.files(environment: ["HOME": "/home/ann"])
                == ["/etc/sesame/sesamectl.toml", "/home/ann/.config/sesame/sesamectl.toml"])
        #expect(
            CtlConfiguration.files(environment: ["XDG_CONFIG_HOME": "/x", "HOME": "/h"]).last
                == "/x/sesame/sesamectl.toml")
    }

    @Test func execTakesOnlyVariableNames() {
        for name in ["SESAME_ID_TOKEN", "_x", "a1"] { #expect(ExecCommand.isVariableName(name)) }
        for name in ["", "1A", "A-B", "A B", "É"] { #expect(!ExecCommand.isVariableName(name)) }
    }
}
