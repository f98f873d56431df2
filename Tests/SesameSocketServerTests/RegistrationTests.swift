import Foundation
import SesameLocalAPI
import Testing

@testable import SesameSocketServer

/// The generated registration (`SessionCalls+Registration.swift`) sends each method the
/// service answers to the hand-written handler of its concern; a method its handler lacks would
/// be answered `-32603`. Every such method, with the params api/local-api.json requires, is
/// answered with its result or a domain error, never that (nor `-32602`: its params decoded).
@Suite("Every method the service answers reaches its handler", .timeLimit(.minutes(1)))
struct RegistrationTests {
    /// The description's methods, by name.
    private static func describedMethods() throws -> [String: JSONValue] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("api/local-api.json"), encoding: .utf8)
        var methods: [String: JSONValue] = [:]
        for method in try JSONValue.parse(text)["methods"]?.arrayValue ?? [] {
            if let name = method["name"]?.stringValue { methods[name] = method }
        }
        return methods
    }

    /// The least params the description asks for: each required param with a value of its type
    /// (the first of its `values`), and the first of an `exactlyOne` pair.
    private static func leastParams(_ method: JSONValue) -> JSONValue {
        var params: [String: JSONValue] = [:]
        for param in method["params"]?.arrayValue ?? [] where param["optional"]?.boolValue != true {
            guard let name = param["name"]?.stringValue else { continue }
            switch param["type"]?.stringValue {
            case "number": params[name] = 1
            case "bool": params[name] = false
            case "Credential": params[name] = ["providerId": "google.com", "idToken": "t"]
            default: params[name] = param["values"]?.arrayValue?.first ?? "x"
            }
        }
        for rule in method["rules"]?.arrayValue ?? [] {
            if let first = rule["exactlyOne"]?.arrayValue?.first?.stringValue { params[first] = "x" }
        }
        return .object(params)
    }

    @Test("each method of the service venues is answered by a handler: a result or a domain error, never -32603")
    func everyMethodHasAHandler() async throws {
        let described = try Self.describedMethods()
        let methods = LocalAPIMethod.allCases.filter { $0.venue != .eventLoop }
        #expect(methods.count > 20)
        try await SocketHarness.withAnonymousClient { _, client in
            for (index, method) in methods.enumerated() {
                let description = try #require(described[method.rawValue], "\(method) is not described")
                let answer = try await client.call(
                    method.rawValue, id: index + 1, params: Self.leastParams(description))
                let code = answer["error"]?["code"]?.int64Value
                // -32602 would mean the params never reached the handler; -32603, no handler.
                #expect(
                    answer["result"] != nil || (code != nil && code != -32602 && code != -32603),
                    "\(method): \(answer)")
            }
        }
    }
}
