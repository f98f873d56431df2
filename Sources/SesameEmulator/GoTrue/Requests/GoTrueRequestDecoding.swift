import Foundation
import SesameLocalAPI

/// How a ``GoTrueBody`` is read: top-level snake_case names match the properties' camel case (`refresh_token`
/// → `refreshToken`); a name already in camel case matches none, as in GoTrue. Nested objects keep their names.
enum GoTrueRequestDecoding {
    /// Decodes a JSON body; a blank body is `{}`.
    /// - Throws: 400 `bad_json` for text that is not a JSON object, nests deeper than
    ///   ``JSON/maximumDepth`` (or is otherwise refused by ``JSONPrecheck``), or has a field of
    ///   the wrong type (naming the field as the body does).
    static func decode<Body: GoTrueBody>(_ type: Body.Type, from bytes: [UInt8]) throws(GoTrueError) -> Body {
        if let problem = JSONPrecheck.problem(in: bytes, maximumDepth: JSONCoding.maximumDepth) {
            throw .badJSON(problem)
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .custom { path in
            path.count == 1 ? FieldName(json: path[0].stringValue) : path[path.count - 1]
        }
        do {
            return try decoder.decode(type, from: Data(JSONCoding.objectIfBlank(bytes)))
        } catch DecodingError.typeMismatch(let expected, let context) where !context.codingPath.isEmpty {
            let field = context.codingPath.map { FieldName.snakeCase($0.stringValue) }.joined(separator: ".")
            throw .badJSON("the field \(field) must be \(typeName(expected))")
        } catch DecodingError.typeMismatch {
            throw .badJSON("expected a JSON object")
        } catch {
            throw .badJSON("the body is not valid JSON")
        }
    }

    private static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Double.Type: return "a number"
        default: return "an object"
        }
    }

    /// A body's field name as a property name.
    struct FieldName: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }

        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }

        /// `refresh_token` → `refreshToken`; a name with capitals is made to match no property.
        init(json name: String) {
            guard !name.contains(where: \.isUppercase) else {
                self.stringValue = "-" + name
                return
            }
            let words = name.split(separator: "_", omittingEmptySubsequences: false)
            self.stringValue = words.enumerated().map { $0 == 0 ? String($1) : $1.capitalized }.joined()
        }

        /// `refreshToken` → `refresh_token`.
        static func snakeCase(_ name: String) -> String {
            name.reduce(into: "") { out, c in out += c.isUppercase ? "_" + c.lowercased() : String(c) }
        }
    }
}
