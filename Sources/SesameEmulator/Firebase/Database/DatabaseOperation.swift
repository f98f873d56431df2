import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// One operation of the database port: the method and kind of path it answers, and what it
/// does. The table of every operation is ``DatabaseEndpoints/operations``.
struct DatabaseOperation: Sendable {
    /// A method of ``DatabaseEndpoints`` (unapplied: `DatabaseEndpoints.get`).
    typealias Perform = @Sendable (DatabaseEndpoints) -> (DatabaseRequest) async throws(DatabaseError) -> Response

    enum Target: Sendable, Equatable {
        /// A location of the tree (`/<path>.json`).
        case data
        /// A location's changes as server-sent events (`GET` with `Accept: text/event-stream`).
        case stream
        /// The namespace's security rules (`/.settings/rules.json`).
        case rules
    }

    let target: Target
    /// The method after `X-HTTP-Method-Override`; also the fault extension's counter name.
    let method: String
    let perform: Perform
}

extension DatabaseEndpoints {
    static let operations: [DatabaseOperation] = [
        DatabaseOperation(target: .data, method: "GET", perform: DatabaseEndpoints.get),
        DatabaseOperation(target: .data, method: "PUT", perform: DatabaseEndpoints.put),
        DatabaseOperation(target: .data, method: "DELETE", perform: DatabaseEndpoints.put),
        DatabaseOperation(target: .data, method: "PATCH", perform: DatabaseEndpoints.patch),
        DatabaseOperation(target: .data, method: "POST", perform: DatabaseEndpoints.post),
        DatabaseOperation(target: .stream, method: "GET", perform: DatabaseEndpoints.stream),
        DatabaseOperation(target: .rules, method: "GET", perform: DatabaseEndpoints.getRules),
        DatabaseOperation(target: .rules, method: "PUT", perform: DatabaseEndpoints.putRules),
    ]

    /// `GET /.settings/rules.json`: the uploaded rules, or the open rules that apply without them.
    func getRules(_ call: DatabaseRequest) async throws(DatabaseError) -> Response {
        .json(await state.rules(namespace: call.namespace))
    }

    /// `PUT /.settings/rules.json`: a body that is not JSON is taken as a string (and refused).
    func putRules(_ call: DatabaseRequest) async throws(DatabaseError) -> Response {
        let value = try call.json(allowLenient: true)
        do throws(SecurityRulesError) {
            try await state.setRules(namespace: call.namespace, rules: value)
        } catch {
            throw .badRequest("\nError saving rules - \(error.message)\n")
        }
        return .json(["status": "ok"] as JSONValue)
    }

    /// A written or read value (its presentation), or 204 with `print=silent`; `ETag` when asked.
    private static func answer(_ value: JSONValue, etag: String?, silent: Bool) -> Response {
        let headers: HTTPFields = etag.map { [.eTag: $0] } ?? [:]
        return silent ? .empty(.noContent, headers: headers) : .json(value, headers: headers)
    }

    /// `GET`: the value, through the query (or `shallow=true`); 304 for a matching `if-none-match`.
    func get(_ call: DatabaseRequest) async throws(DatabaseError) -> Response {
        let (value, etag) = try await state.read(namespace: call.namespace, path: call.path(), as: call.identity)
        if call.ifNoneMatch == etag { return .empty(.notModified, headers: [.eTag: etag]) }
        let shown =
            if let query = try DatabaseQuery(parameters: call.query) {
                query.apply(to: value)
            } else if call.query["shallow"] == "true" {
                DatabaseValue.shallow(value)
            } else {
                value
            }
        return Self.answer(
            DatabaseValue.presentation(shown), etag: call.wantsETag || call.ifNoneMatch != nil ? etag : nil,
            silent: call.silent)
    }

    /// `PUT` (and `DELETE`, which puts `null`): 412 with the current value when `if-match`
    /// does not match.
    func put(_ call: DatabaseRequest) async throws(DatabaseError) -> Response {
        let path = try call.path()
        let value = call.method == "DELETE" ? .null : try call.json()
        switch try await state.write(
            namespace: call.namespace, path: path, value: value, ifMatch: call.ifMatch, as: call.identity)
        {
        case .done(let stored, let etag):
            let shown = call.wantsETag || call.ifMatch != nil ? etag : nil
            return Self.answer(DatabaseValue.presentation(stored), etag: shown, silent: call.silent)
        case .preconditionFailed(let current, let etag):
            return .json(DatabaseValue.presentation(current), status: .preconditionFailed, headers: [.eTag: etag])
        }
    }

    /// `PATCH`: a multi-location update of the children the body names.
    func patch(_ call: DatabaseRequest) async throws(DatabaseError) -> Response {
        let path = try call.path()
        if call.ifMatch != nil { throw .ifMatchOnlyOnPutAndDelete }
        let value = try call.json()
        guard case .object(let children) = value else {
            throw .badRequest("Invalid data; couldn't parse JSON object. PATCH requires an object.")
        }
        let etag = try await state.update(namespace: call.namespace, path: path, children: children, as: call.identity)
        return Self.answer(value, etag: call.wantsETag ? etag : nil, silent: call.silent)
    }

    /// `POST`: the value under a new push id; answers `{"name": <id>}`.
    func post(_ call: DatabaseRequest) async throws(DatabaseError) -> Response {
        let path = try call.path()
        if call.ifMatch != nil { throw .ifMatchOnlyOnPutAndDelete }
        let value = try call.json()
        let key = PushIdentifier.make(milliseconds: state.clock.milliseconds())
        let written = try await state.write(
            namespace: call.namespace, path: path.appending(DatabasePath(keys: [key])), value: value, ifMatch: nil,
            as: call.identity)
        let etag: String? = if call.wantsETag, case .done(_, let tag) = written { tag } else { nil }
        return Self.answer(["name": .string(key)], etag: etag, silent: call.silent)
    }
}
