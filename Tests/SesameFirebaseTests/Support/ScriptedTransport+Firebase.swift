import SesameHTTP
import SesameTesting

extension ScriptedTransport.Reply {
    /// A Google REST error envelope with `message` (docs/firebase.md, "Endpoints").
    static func error(_ status: Int = 400, _ message: String) -> Self {
        .json(
            status,
            #"{"error":{"code":\#(status),"message":"\#(message)","errors":[{"message":"\#(message)","reason":"invalid","domain":"global"}]}}"#
        )
    }
}

extension ScriptedTransport {
    /// The recorded requests rendered as snapshots.
    var snapshots: [String] {
        requests.map(RequestSnapshot.render)
    }
}
