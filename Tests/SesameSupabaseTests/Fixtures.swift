import Foundation
import NIOCore
import NIOHTTP1
import SesameCore
import SesameHTTP
import SesameSupabase

/// An `HTTPTransport` that records every request and answers from a script, in order. When the
/// script runs out it answers 599, which no test expects.
actor ScriptedTransport: HTTPTransport {
    enum Reply: Sendable {
        case response(HTTPResponse)
        case failure(HTTPTransportError)

        static func json(_ status: Int = 200, _ text: String, headers: HTTPHeaders = [:]) -> Reply {
            var headers = headers
            headers.add(name: "Content-Type", value: "application/json")
            return .response(HTTPResponse(status: status, headers: headers, text: text))
        }

        /// A GoTrue error in the 2024-01-01 shape.
        static func error(_ status: Int, _ code: String) -> Reply {
            .json(status, #"{"code":"\#(code)","message":"Something about \#(code)"}"#)
        }

        /// A GoTrue error in the legacy shape.
        static func legacy(_ status: Int, _ code: String) -> Reply {
            .json(status, #"{"code":\#(status),"error_code":"\#(code)","msg":"Something"}"#)
        }

        /// A PostgREST error.
        static func postgrest(_ status: Int, _ code: String) -> Reply {
            .json(status, #"{"code":"\#(code)","details":null,"hint":null,"message":"Something"}"#)
        }

        static let noContent = Reply.response(HTTPResponse(status: 204))
    }

    private(set) var requests: [HTTPRequest] = []
    private var replies: [Reply]

    init(_ replies: [Reply]) { self.replies = replies }

    func send(_ request: HTTPRequest) async throws(HTTPTransportError) -> HTTPResponse {
        requests.append(request)
        guard !replies.isEmpty else { return HTTPResponse(status: 599, text: "script exhausted") }
        switch replies.removeFirst() {
        case .response(let response): return response
        case .failure(let error): throw error
        }
    }

    /// `METHOD URL`, the headers (lower-cased names, sorted), the body.
    var snapshots: [String] {
        requests.map { request in
            var lines = ["\(request.method.rawValue) \(request.url)"]
            lines += request.headers.map { "\($0.name.lowercased()): \($0.value)" }.sorted()
            if let body = request.bodyText { lines.append(body) }
            return lines.joined(separator: "\n")
        }
    }
}

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

    static func session(jwt: String = anonymousJWT, refresh: String = "r1", user: String = user()) -> ScriptedTransport.Reply {
        .json(200, #"{"access_token":"\#(jwt)","token_type":"bearer","expires_in":3600,"expires_at":1800003600,"refresh_token":"\#(refresh)","user":\#(user)}"#)
    }
}
