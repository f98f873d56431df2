import SesameFirebase
import Testing

@Suite("Firebase configuration")
struct FirebaseConfigurationTests {
    @Test(
        "emulator hosts are host:port; empty values mean production",
        arguments: [
            ("127.0.0.1:9099", "127.0.0.1:9099"),
            ("http://127.0.0.1:9099/", "127.0.0.1:9099"),
            ("  localhost:9099 ", "localhost:9099"),
        ])
    func emulatorHost(given: String, stored: String) {
        let configuration = FirebaseConfiguration(
            apiKey: "k", projectId: "p", authEmulatorHost: given, databaseEmulatorHost: given)
        #expect(configuration.authEmulatorHost == stored)
        #expect(configuration.databaseEmulatorHost == stored)
    }

    @Test("empty strings are absent")
    func empty() {
        let configuration = FirebaseConfiguration(
            apiKey: "k", projectId: "p", authEmulatorHost: "", databaseURL: " ", databaseEmulatorHost: ""
        )
        #expect(configuration.authEmulatorHost == nil)
        #expect(configuration.databaseURL == nil)
        #expect(configuration.databaseEmulatorHost == nil)
        #expect(!configuration.usernamesEnabled)
        #expect(
            FirebaseConfiguration(apiKey: "k", projectId: "p", databaseEmulatorHost: "127.0.0.1:9000").usernamesEnabled)
        #expect(
            FirebaseConfiguration(apiKey: "k", projectId: "p", databaseURL: "https://db.firebaseio.com")
                .usernamesEnabled)
    }

    @Test("defaults: a short connect timeout, a longer request timeout, http://localhost links")
    func defaults() {
        let configuration = FirebaseConfiguration(apiKey: "k", projectId: "p")
        #expect(configuration.connectTimeout <= .seconds(1))
        #expect(configuration.requestTimeout == .seconds(10))
        #expect(configuration.defaultContinueUrl == "http://localhost")
    }
}
