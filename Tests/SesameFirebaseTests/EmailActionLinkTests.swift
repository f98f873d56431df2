import Foundation
import SesameCore
import SesameFirebase
import Testing

@Suite("Email action links")
struct EmailActionLinkTests {
    static let action =
        "http://127.0.0.1:9099/emulator/action?mode=signIn&lang=en&oobCode=CODE123&apiKey=fake-api-key&continueUrl=http%3A%2F%2Flocalhost"

    @Test("the action link itself")
    func direct() throws {
        let link = try #require(EmailActionLink(Self.action))
        #expect(link.oobCode == "CODE123")
        #expect(link.isSignIn)
        #expect(link.continueUrl == "http://localhost")
    }

    @Test("wrapped in link=, in deep_link_id=, and both")
    func wrapped() throws {
        let encoded = Self.action.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let viaLink = "https://app.example.com/finish?link=\(encoded)"
        #expect(EmailActionLink(viaLink)?.oobCode == "CODE123")
        let viaDeep = "myapp://open?deep_link_id=\(encoded)"
        #expect(EmailActionLink(viaDeep)?.oobCode == "CODE123")
        let inner = "https://x.page.link/?link=\(encoded)".addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        #expect(EmailActionLink("myapp://open?deep_link_id=\(inner)")?.oobCode == "CODE123")
    }

    @Test(
        "what is not a sign-in link",
        arguments: [
            "", "not a url", "https://example.com/?oobCode=x&mode=signIn",  // no apiKey
            "https://example.com/?oobCode=x&apiKey=k",  // no mode
        ])
    func rejects(_ text: String) {
        #expect(EmailActionLink(text) == nil)
    }

    @Test("another mode parses but is not a sign-in link")
    func otherMode() throws {
        let link = try #require(EmailActionLink("https://e.com/?mode=resetPassword&oobCode=c&apiKey=k"))
        #expect(!link.isSignIn)
        #expect(!"\(link)".contains("c&"))
    }
}
