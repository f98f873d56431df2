import Foundation
import SesameCore
import SesameFirebase
import SesameTesting

/// Shared values of the adapter tests.
enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let production = FirebaseConfiguration(apiKey: "test-key", projectId: "demo-project")
    static let emulator = FirebaseConfiguration(
        apiKey: "test-key", projectId: "demo-project", authEmulatorHost: "127.0.0.1:9099",
        databaseEmulatorHost: "127.0.0.1:9000"
    )

    static let anonymousJWT = TestJWT.make(provider: "anonymous")
    static let passwordJWT = TestJWT.make(provider: "password")

    /// A sign-in action link carrying `code`, as Firebase emails it.
    static func signInLink(_ code: String) -> String {
        "https://demo-project.firebaseapp.com/__/auth/action?mode=signIn&oobCode=\(code)&apiKey=test-key&lang=en"
    }

    static func idToken(_ raw: String = "CALLER.ID.TOKEN") -> IDToken {
        IDToken(rawValue: raw, expiresAt: now.addingTimeInterval(3600), issuedAt: now, signInProvider: "anonymous")
    }

    static func provider(
        _ transport: ScriptedTransport, configuration: FirebaseConfiguration = production
    ) -> FirebaseAuthProvider {
        FirebaseAuthProvider(configuration: configuration, transport: transport, now: { now })
    }

    /// A token-bearing answer of signUp / signInWithPassword / signInWithEmailLink.
    static func signInAnswer(
        uid: String = "uid-1", jwt: String = anonymousJWT, refresh: String = "refresh-1", extra: String = ""
    ) -> ScriptedTransport.Reply {
        .json(
            200,
            #"{"kind":"identitytoolkit#SignupNewUserResponse","localId":"\#(uid)","idToken":"\#(jwt)","refreshToken":"\#(refresh)","expiresIn":"3600"\#(extra)}"#
        )
    }
}
