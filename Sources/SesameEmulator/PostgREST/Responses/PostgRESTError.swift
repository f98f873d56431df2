import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// A PostgREST error: `{"code","details","hint","message"}` with PostgREST's HTTP status.
struct PostgRESTError: HTTPResponseError, Sendable, Equatable {
    var httpStatus: Int
    var code: String
    var message: String
    var details: String? = nil
    var hint: String? = nil

    func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers: HTTPFields = [:]
        if httpStatus == 401, code.hasPrefix("PGRST30") {
            headers[.wwwAuthenticate] = "Bearer error=\"invalid_token\", error_description=\"\(message)\""
        }
        let body: JSONValue = [
            "code": .string(code), "message": .string(message), "details": details.map(JSONValue.string) ?? .null,
            "hint": hint.map(JSONValue.string) ?? .null,
        ]
        return Response.json(body, status: status, headers: headers)
    }

    var status: HTTPResponse.Status { HTTPResponse.Status(code: httpStatus) }

    static let invalidJSON = PostgRESTError(httpStatus: 400, code: "PGRST102", message: "Empty or invalid json")

    static func unknownTable(_ name: String) -> PostgRESTError {
        PostgRESTError(
            httpStatus: 404, code: "PGRST205", message: "Could not find the table 'public.\(name)' in the schema cache",
            hint: "This emulator serves the tables public.usernames and public.username_details")
    }
    static func unknownFunction(_ name: String, arguments: [String] = []) -> PostgRESTError {
        let list = arguments.sorted().joined(separator: ", ")
        let called = arguments.isEmpty ? "public.\(name) without parameters" : "public.\(name)(\(list))"
        let searched = arguments.isEmpty ? called : "public.\(name) with parameters \(list)"
        return PostgRESTError(
            httpStatus: 404, code: "PGRST202",
            message: "Could not find the function \(called) in the schema cache",
            details:
                "Searched for the function \(searched) or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache.",
            hint:
                "Deploy it (docs/providers.md, \"Deploying the Supabase side\") or start the emulator with --supabase-delete-function \(name)"
        )
    }
    static func unknownColumn(_ table: String, _ column: String) -> PostgRESTError {
        PostgRESTError(httpStatus: 400, code: "42703", message: "column \(table).\(column) does not exist")
    }
    static func badFilter(_ text: String) -> PostgRESTError {
        PostgRESTError(
            httpStatus: 400, code: "PGRST100", message: "\"failed to parse filter (\(text))\" (line 1, column 1)",
            details: "unexpected end of input expecting an operator; this emulator supports only eq.")
    }
    static func invalidUUID(_ value: String) -> PostgRESTError {
        PostgRESTError(httpStatus: 400, code: "22P02", message: "invalid input syntax for type uuid: \"\(value)\"")
    }
    static func rowLevelSecurity(_ table: String, authenticated: Bool) -> PostgRESTError {
        PostgRESTError(
            httpStatus: authenticated ? 403 : 401, code: "42501",
            message: "new row violates row-level security policy for table \"\(table)\"")
    }
    static func permissionDenied(function: String) -> PostgRESTError {
        PostgRESTError(httpStatus: 401, code: "42501", message: "permission denied for function \(function)")
    }
    static func duplicateKey(_ table: String, column: String, value: String) -> PostgRESTError {
        PostgRESTError(
            httpStatus: 409, code: "23505", message: "duplicate key value violates unique constraint \"\(table)_pkey\"",
            details: "Key (\(column))=(\(value)) already exists.")
    }
    static func foreignKey(_ table: String, uid: String) -> PostgRESTError {
        PostgRESTError(
            httpStatus: 409, code: "23503",
            message: "insert or update on table \"\(table)\" violates foreign key constraint \"\(table)_uid_fkey\"",
            details: "Key (uid)=(\(uid)) is not present in table \"users\".")
    }
    static func notNull(_ table: String, column: String) -> PostgRESTError {
        PostgRESTError(
            httpStatus: 400, code: "23502",
            message: "null value in column \"\(column)\" of relation \"\(table)\" violates not-null constraint")
    }
    static func jwt(_ error: SupabaseJWTError) -> PostgRESTError {
        switch error {
        case .expired: return PostgRESTError(httpStatus: 401, code: "PGRST303", message: "JWT expired")
        case .badSignature:
            return PostgRESTError(httpStatus: 401, code: "PGRST301", message: "JWSError JWSInvalidSignature")
        case .malformed(let parts):
            return PostgRESTError(
                httpStatus: 401, code: "PGRST301",
                message: "JWSError (CompactDecodeError Invalid number of parts: Expected 3 parts; got \(parts))")
        }
    }
}
