import Foundation
import NIOCore
import NIOHTTP1
import SesameHTTP

/// Plain JSON calls to emulator-only paths (faults, mail boxes), over the project's transport.
struct HTTPHelper: Sendable {
    let transport: AsyncHTTPClientTransport

    /// Sends `method url` with an optional JSON body; answers the status and the JSON value.
    @discardableResult
    func call(
        _ method: HTTPMethod, _ url: String, json: String? = nil, headers: [(String, String)] = []
    ) async throws -> (status: Int, body: Any?) {
        var request = HTTPRequest(name: "helper", method: method, url: url)
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .init(string: json)
        }
        let response = try await transport.send(request)
        return (
            response.status,
            try? JSONSerialization.jsonObject(with: Data(response.bytes), options: [.fragmentsAllowed])
        )
    }

    /// `POST <base>/sesame/v1/faults`.
    func faults(_ base: String, _ json: String) async throws {
        let (status, _) = try await call(.POST, base + "/sesame/v1/faults", json: json)
        guard status == 200 else { throw EmulatorBinaryError("faults answered \(status)") }
    }
}
