import Foundation
import Testing

@testable import sesamed

/// `[access]` in `sesamed.toml`: entries that name what a peer is, and `root_in_containers`.
@Suite("sesamed configuration: access")
struct AccessConfigurationTests {
    @Test("entries by unit, executable, Flatpak id and container, joined by spaces; root_in_containers")
    func entries() throws {
        let configuration = try OAuthConfigurationTests.load(
            """
            [access]
            managers = ["user:ann exe:/usr/bin/notes", "unit:backup.service"]
            readers = ["flatpak:org.example.Notes", "container"]
            root_in_containers = true
            """)
        #expect(configuration.managers == ["user:ann exe:/usr/bin/notes", "unit:backup.service"])
        #expect(configuration.readers == ["flatpak:org.example.Notes", "container"])
        #expect(configuration.rootInContainers)
        #expect(try OAuthConfigurationTests.load("").rootInContainers == false)
    }

    @Test(
        "a malformed entry or part is refused naming the key",
        arguments: ["exe:notes", "unit:backup", "user:ann exe:", "containers"])
    func malformed(entry: String) {
        let message = OAuthConfigurationTests.refusal("[access]\nreaders = [\"\(entry)\"]\n")
        #expect(message.contains("'access.readers' has \"\(entry)\""))
        #expect(message.contains("\"exe:/PATH\""))
    }

    @Test("root_in_containers must be true or false")
    func rootInContainersType() {
        #expect(OAuthConfigurationTests.refusal("[access]\nroot_in_containers = 1\n").contains("root_in_containers"))
    }
}
