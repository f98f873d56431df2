import AsyncHTTPClient
import NIOCore
import NIOHTTP1
import SesameHTTP
import SesameLocalAPI

/// Plain JSON calls to what only the emulator serves (fault knobs, call counters, mail boxes,
/// admin paths), over the project's HTTP transport: the one way every test target reaches them.
public struct EmulatorHTTP: Sendable {
    private let transport: any HTTPTransport

    /// Over `transport`; by default AsyncHTTPClient's shared client, which nobody shuts down.
    public init(transport: (any HTTPTransport)? = nil) {
        self.transport = transport ?? AsyncHTTPClientTransport(client: .shared, requestTimeout: .seconds(30))
    }

    /// Sends `method url` with an optional JSON body; the status and the body as JSON (`null`
    /// when empty or not JSON).
    @discardableResult
    public func call(
        _ method: String, _ url: String, json: JSONValue? = nil, headers: [(String, String)] = []
    ) async throws -> (status: Int, body: JSONValue) {
        var request = HTTPRequest(name: "emulator", method: HTTPMethod(rawValue: method), url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = ByteBuffer(bytes: json.serialized())
        }
        let response = try await transport.send(request)
        return (response.status, (try? JSONValue.parse(response.bytes)) ?? .null)
    }

    /// Sets fault-injection knobs (`POST <base>/sesame/v1/faults`).
    public func faults(_ base: String, _ settings: JSONValue) async throws {
        let (status, body) = try await call("POST", base + "/sesame/v1/faults", json: settings)
        guard status == 200 else { throw HarnessError("faults answered \(status): \(body.jsonString)") }
    }

    /// Clears every fault knob and the call counters (`DELETE <base>/sesame/v1/faults`).
    public func clearFaults(_ base: String) async throws {
        try await call("DELETE", base + "/sesame/v1/faults")
    }

    /// The per-endpoint call counters (`GET <base>/sesame/v1/faults`, `calls`).
    public func calls(_ base: String) async throws -> [String: Int] {
        let (_, body) = try await call("GET", base + "/sesame/v1/faults")
        return (body["calls"]?.objectValue ?? [:]).compactMapValues { $0.int64Value.map { Int($0) } }
    }

    /// The Firebase Auth emulator's pending out-of-band codes, oldest first
    /// (`GET <authBase>/emulator/v1/projects/<project>/oobCodes`).
    public func oobCodes(_ authBase: String, project: String = EmulatorChild.project) async throws -> [JSONValue] {
        let (_, body) = try await call("GET", "\(authBase)/emulator/v1/projects/\(project)/oobCodes")
        return body["oobCodes"]?.arrayValue ?? []
    }

    /// The mails the Supabase surface "sent", oldest first (`GET <url>/sesame/v1/supabase/messages`).
    public func supabaseMessages(_ url: String) async throws -> [JSONValue] {
        let (_, body) = try await call("GET", url + "/sesame/v1/supabase/messages")
        return body["messages"]?.arrayValue ?? []
    }
}
