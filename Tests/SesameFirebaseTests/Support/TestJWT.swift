import Foundation

/// Builds unsigned JWTs like the Auth emulator's (`alg: none`, empty signature).
enum TestJWT {
    static func make(uid: String = "uid-1", provider: String) -> String {
        let header = #"{"alg":"none","typ":"JWT"}"#
        let payload =
            #"{"user_id":"\#(uid)","sub":"\#(uid)","firebase":{"sign_in_provider":"\#(provider)","identities":{}}}"#
        return "\(encode(header)).\(encode(payload))."
    }

    static func encode(_ text: String) -> String {
        Data(text.utf8).base64EncodedString()
            .replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_")
            .replacingOccurrences(of: "=", with: "")
    }
}
