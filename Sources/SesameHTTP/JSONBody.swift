import Foundation
import NIOCore
import NIOHTTP1

/// JSON in and out of ``HTTPRequest`` and ``HTTPResponse``, with secret-free failures.
public enum JSONBody {
    /// Encodes `value` with sorted keys and unescaped slashes (stable request snapshots).
    public static func encode(_ value: some Encodable) -> ByteBuffer {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // The adapters' request bodies are structs of strings, numbers and booleans: they
        // always encode. `null` is a safe answer to the impossible.
        return ByteBuffer(bytes: (try? encoder.encode(value)) ?? Data("null".utf8))
    }

    /// Decodes `bytes` as `type`.
    /// - Throws: a ``JSONBodyError`` that names the wrong field, never a value.
    public static func decode<Value: Decodable>(_ type: Value.Type, from bytes: [UInt8]) throws(JSONBodyError) -> Value
    {
        do {
            return try JSONDecoder().decode(type, from: Data(bytes))
        } catch let error as DecodingError {
            throw JSONBodyError(summary: summary(of: error))
        } catch {
            throw JSONBodyError(summary: "unreadable answer")
        }
    }

    /// Which field was wrong, without any value.
    public static func summary(of error: DecodingError) -> String {
        func path(_ context: DecodingError.Context) -> String {
            let joined = context.codingPath.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(
                separator: ".")
            return joined.isEmpty ? "<root>" : joined
        }
        switch error {
        case .keyNotFound(let key, let context):
            let parent = path(context)
            return "missing field \(parent == "<root>" ? key.stringValue : parent + "." + key.stringValue)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context):
            return "unexpected type at \(path(context))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? JSONBodyError.notJSON : "corrupted value at \(path(context))"
        @unknown default:
            return "unreadable answer"
        }
    }
}

/// A JSON body that could not be decoded; `summary` names the field, never a value.
public struct JSONBodyError: Error, Sendable, Hashable, CustomStringConvertible {
    public var summary: String

    public init(summary: String) { self.summary = summary }

    /// The summary of a body that is not JSON at all.
    public static let notJSON = "not JSON"

    /// Whether the body was not JSON at all (rather than JSON of another shape).
    public var isNotJSON: Bool { summary == Self.notJSON }

    public var description: String { summary }
}

extension HTTPRequest {
    /// A request with `body` encoded as JSON and `Content-Type: application/json`.
    public static func json(
        name: String, method: HTTPMethod, url: String, headers: HTTPHeaders = [:], body: some Encodable
    ) -> HTTPRequest {
        var headers = headers
        headers.replaceOrAdd(name: "Content-Type", value: "application/json")
        return HTTPRequest(name: name, method: method, url: url, headers: headers, body: JSONBody.encode(body))
    }
}

/// A coding key for free-form JSON objects (any name).
public struct AnyCodingKey: CodingKey, Sendable {
    public var stringValue: String
    public var intValue: Int? { nil }

    public init(_ string: String) { stringValue = string }
    public init(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { nil }
}
