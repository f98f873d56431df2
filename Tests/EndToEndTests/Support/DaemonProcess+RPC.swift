import Foundation
import SesameLocalAPI
import SesameTesting
import Testing

/// A daemon's error answer, as the wire has it.
struct RPCError: Error, CustomStringConvertible {
    let code: Int
    let reason: String
    let message: String
    let data: JSONValue

    var description: String { "RPCError(\(code) \(reason)): \(message)" }
}

extension DaemonProcess {
    /// One request on a connection of its own; the result, or the error answer thrown as ``RPCError``.
    @discardableResult
    func rpc(_ method: String, _ params: [String: JSONValue] = [:]) async throws -> JSONValue {
        let line = JSONValue.object([
            "jsonrpc": "2.0", "id": 1, "method": .string(method), "params": .object(params),
        ]).jsonString
        let path = socketPath
        let answer = try await onOwnThread { try rawCall(path, line) }
        if let error = answer["error"] {
            throw RPCError(
                code: Int(error["code"]?.int64Value ?? 0), reason: error["data"]?["reason"]?.stringValue ?? "",
                message: error["message"]?.stringValue ?? "", data: error["data"] ?? .null)
        }
        return answer["result"] ?? .null
    }

    /// Expects `method` to fail with `reason`; returns the error.
    @discardableResult
    func rpcError(
        _ reason: String, _ method: String, _ params: [String: JSONValue] = [:],
        sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> RPCError? {
        do {
            let result = try await rpc(method, params)
            Issue.record("expected \(reason) from \(method), got \(result.jsonString)", sourceLocation: sourceLocation)
        } catch let error as RPCError {
            #expect(error.reason == reason, "\(error)", sourceLocation: sourceLocation)
            return error
        }
        return nil
    }

    /// The daemon's state object.
    func wireState() async throws -> JSONValue { try await rpc("getState") }
}
