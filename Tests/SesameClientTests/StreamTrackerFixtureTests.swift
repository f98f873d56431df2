import Foundation
import SesameLocalAPI
import Testing

@testable import SesameClient

/// The shared tracker table (tests/fixtures/stream-tracker.json), run against ``StreamTracker``
/// and a ``Consumer``, as the Node and Python clients' trackers run it, so the three clients
/// cannot drift.
@Suite("stream tracker: the shared table")
struct StreamTrackerFixtureTests {
    static let fixture: JSONValue = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let data = (try? Data(contentsOf: root.appendingPathComponent("tests/fixtures/stream-tracker.json"))) ?? Data()
        return (try? JSONValue.parse(Array(data))) ?? .null
    }()

    static var cases: [String] {
        (fixture["cases"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
    }

    /// The states a consumer collects.
    final class Collected: @unchecked Sendable {
        var states: [SesameState] = []
    }

    @Test("the tracker follows every row", arguments: cases)
    func row(_ name: String) throws {
        let row = try #require(Self.fixture["cases"]?.arrayValue?.first { $0["name"]?.stringValue == name })
        var tracker = StreamTracker()
        let collected = Collected()
        var consumer = Consumer(sink: .stateListener { collected.states.append($0) })
        for (index, step) in (row["steps"]?.arrayValue ?? []).enumerated() {
            collected.states = []
            let result = try run(step, on: &tracker)
            for case .state(let state) in result.offers { consumer.offer(state: state, instance: tracker.instance) }
            let wanted = step["expect"]?.arrayValue ?? []
            let op = step["op"]?.stringValue ?? "?"
            #expect(
                collected.states.count == wanted.count,
                "step \(index) (\(op)): gave \(collected.states.map(\.sequence))")
            for (state, fields) in zip(collected.states, wanted) {
                for (key, value) in fields.objectValue ?? [:] {
                    #expect(observed(state, key) == value, "step \(index) (\(op)): \(key)")
                }
            }
            #expect(result.resync == (step["resync"]?.boolValue ?? false), "step \(index) (\(op)): resync")
        }
    }

    @Test func theTableCoversEveryRule() {
        let names = Self.cases.joined(separator: " ")
        for rule in ["snapshot comes first", "gap", "new instance", "no duplicates"] {
            #expect(names.contains(rule), "\(rule)")
        }
    }

    func run(_ step: JSONValue, on tracker: inout StreamTracker) throws -> StreamTracker.Step {
        switch step["op"]?.stringValue {
        case "connect":
            tracker.connected(instance: step["instance"]?.stringValue)
            return StreamTracker.Step()
        case "snapshot":
            return tracker.snapshot(try #require(full(step["state"])), reason: .snapshot)
        case "notification":
            var params = step["params"]?.objectValue ?? [:]
            if let state = full(params["state"]) { params["state"] = state }
            let method = step["method"]?.stringValue ?? ""
            guard let notification = LocalAPINotification(method: method, params: .object(params)),
                notification.event.advancesSequence
            else { return StreamTracker.Step() }
            return tracker.notification(notification)
        case "resynced":
            return tracker.resynced(full(step["state"]))
        default:
            Issue.record("unknown op")
            return StreamTracker.Step()
        }
    }

    /// A state of the table: `base` with the step's fields over it; nil for null.
    func full(_ partial: JSONValue?) -> JSONValue? {
        guard let partial = partial?.objectValue, var base = Self.fixture["base"]?.objectValue else { return nil }
        for (key, value) in partial { base[key] = value }
        return .object(base)
    }

    func observed(_ state: SesameState, _ key: String) -> JSONValue {
        switch key {
        case "sequence": .integer(state.sequence)
        case "reason": state.changeReason.map { .string($0.rawValue) } ?? .null
        case "status": .string(state.status.rawValue)
        case "uid": state.user.map { .string($0.uid) } ?? .null
        case "connectivity": .string(state.connectivity.rawValue)
        case "tokenExpiresAt": WireTime.json(state.tokenExpiresAt)
        case "rateLimitOperation": state.rateLimit.map { .string($0.operation) } ?? .null
        default: .string("unknown field \(key)")
        }
    }
}
