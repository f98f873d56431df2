import Foundation
import SesameLocalAPI

/// The typed body of one Identity Toolkit operation.
protocol IdentityToolkitRequest: Decodable, Sendable {}

/// The fields every operation reads besides its own: it refuses `tenantId` (501) and an
/// unprivileged `targetProjectId`.
struct TenancyFields: IdentityToolkitRequest {
    @Field var tenantId: JSONValue?
    @Field var targetProjectId: JSONValue?
}

enum IdentityToolkitRequestDecoding {
    /// Decodes a JSON body (blank means `{}`); snake_case keys are accepted for camelCase ones.
    /// - Throws: 400 `INVALID_ARGUMENT`: `Invalid JSON payload received. …` for text that is not
    ///   a JSON object or nests too deep, or for a field of the wrong type (naming it).
    static func decode<Body: Decodable>(_ type: Body.Type, from bytes: [UInt8]) throws(IdentityToolkitError) -> Body {
        let bytes = JSONCoding.objectIfBlank(bytes)
        if let problem = JSONPrecheck.problem(in: bytes, maximumDepth: JSONCoding.maximumDepth) {
            throw .parseError(problem)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        do {
            return try decoder.decode(type, from: Data(bytes))
        } catch let error as IdentityToolkitError {
            throw error
        } catch DecodingError.typeMismatch(let expected, let context) where !context.codingPath.isEmpty {
            let path = "/" + context.codingPath.map(\.stringValue).joined(separator: "/")
            throw .invalidArgument("Invalid JSON payload received. \(path) should be \(typeName(expected))")
        } catch DecodingError.typeMismatch {
            throw .parseError("Expected a JSON object.")
        } catch {
            throw .parseError("Unexpected token.")
        }
    }

    /// Decodes fields gathered from a form body or a query string.
    static func decode<Body: Decodable>(
        _ type: Body.Type, fields: [String: JSONValue]
    ) throws(IdentityToolkitError) -> Body {
        try decode(type, from: JSONValue.object(fields).serialized())
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is Bool.Type: return "boolean"
        case is Int.Type: return "integer"
        case is String.Type: return "string"
        default: return "\(type)".hasPrefix("Array") ? "array" : "object"
        }
    }
}
