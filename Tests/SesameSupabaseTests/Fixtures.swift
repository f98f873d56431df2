import Foundation
import SesameCore
import SesameHTTP
import SesameSupabase
import SesameTesting

enum Fixtures {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)
    static let configuration = SupabaseConfiguration(url: "https://proj.supabase.co/", anonKey: "ANON")

    static func provider(_ transport: ScriptedTransport) -> SupabaseAuthProvider {
        SupabaseAuthProvider(configuration: configuration, transport: transport, now: { now })
    }

    static func directory(_ transport: ScriptedTransport) -> SupabaseUsernameDirectory {
        SupabaseUsernameDirectory(configuration: configuration, transport: transport, now: { now })
    }

    static func idToken(_ raw: String = "USER.ACCESS.TOKEN") -> IDToken {
        IDToken(rawValue: raw, expiresAt: now.addingTimeInterval(3600), issuedAt: now, signInProvider: "anonymous")
    }

    /// An unsigned JWT with `payload` (a JSON object's text).
    static func jwt(_ payload: String) -> String {
        func encode(_ text: String) -> String {
            Data(text.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
                .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        }
        return encode(#"{"alg":"HS256","typ":"JWT"}"#) + "." + encode(payload) + ".sig"
    }

    static let anonymousJWT = jwt(#"{"sub":"u-1","is_anonymous":true,"amr":[{"method":"anonymous","timestamp":1}]}"#)
    static let passwordJWT = jwt(#"{"sub":"u-1","is_anonymous":false,"amr":[{"method":"password","timestamp":2}]}"#)

    static func user(id: String = "u-1", anonymous: Bool = true, extra: String = "") -> String {
        #"{"id":"\#(id)","aud":"authenticated","role":"authenticated","is_anonymous":\#(anonymous),"app_metadata":{},"user_metadata":{},"identities":[],"created_at":"2026-11-21T10:00:00.123456Z"\#(extra)}"#
    }

    static func session(
        jwt: String = anonymousJWT, refresh: String = "r1", user: String = user()
    ) -> ScriptedTransport.Reply {
        .json(
            200,
            #"{"access_token":"\#(jwt)","token_type":"bearer","expires_in":3600,"expires_at":1800003600,"refresh_token":"\#(refresh)","user":\#(user)}"#
        )
    }
}
