/// A notification the daemon pushes to subscribers, with its params.
public enum LocalAPINotification: Sendable, Hashable {
    case authStateChanged(state: WireState, previousUid: String?, reason: String, sequence: Int64)
    case idTokenChanged(uid: String, expiresAt: String, sequence: Int64)
    case userUpdated(state: WireState, sequence: Int64)
    /// `rateLimit` is the state's, while `connectivity` is `rate-limited` (nil otherwise).
    case connectivityChanged(connectivity: String, rateLimit: SesameRateLimit? = nil, sequence: Int64)
    case accountMerge(merge: WireMerge, sequence: Int64)
    case shutdown(reason: String, sequence: Int64)
    case signInFlowChanged(flow: WireSignInFlow, state: WireState, sequence: Int64)
    /// Managers only; carries the current `sequence` without adding one.
    case accessRequestsChanged(accessRequests: [SesameAccessRequest], sequence: Int64)

    public var event: LocalAPIEvent {
        switch self {
        case .authStateChanged: .authStateChanged
        case .idTokenChanged: .idTokenChanged
        case .userUpdated: .userUpdated
        case .connectivityChanged: .connectivityChanged
        case .accountMerge: .accountMerge
        case .shutdown: .shutdown
        case .signInFlowChanged: .signInFlowChanged
        case .accessRequestsChanged: .accessRequestsChanged
        }
    }

    public var sequence: Int64 {
        switch self {
        case .authStateChanged(_, _, _, let s), .idTokenChanged(_, _, let s), .userUpdated(_, let s),
            .connectivityChanged(_, _, let s), .accountMerge(_, let s), .shutdown(_, let s),
            .signInFlowChanged(_, _, let s), .accessRequestsChanged(_, let s):
            s
        }
    }

    public var params: JSONValue {
        switch self {
        case .authStateChanged(let state, let previousUid, let reason, let sequence):
            .object([
                "state": state.json, "previousUid": .optional(previousUid), "reason": .string(reason),
                "sequence": .integer(sequence),
            ])
        case .idTokenChanged(let uid, let expiresAt, let sequence):
            .object(["uid": .string(uid), "expiresAt": .string(expiresAt), "sequence": .integer(sequence)])
        case .userUpdated(let state, let sequence):
            .object(["state": state.json, "sequence": .integer(sequence)])
        case .connectivityChanged(let connectivity, let rateLimit, let sequence):
            .object([
                "connectivity": .string(connectivity), "rateLimit": rateLimit?.json ?? .null,
                "sequence": .integer(sequence),
            ])
        case .accountMerge(let merge, let sequence):
            .object(["merge": merge.json, "sequence": .integer(sequence)])
        case .shutdown(let reason, let sequence):
            .object(["reason": .string(reason), "sequence": .integer(sequence)])
        case .signInFlowChanged(let flow, let state, let sequence):
            .object(["flow": flow.json, "state": state.json, "sequence": .integer(sequence)])
        case .accessRequestsChanged(let requests, let sequence):
            .object(["accessRequests": .array(requests.map(\.json)), "sequence": .integer(sequence)])
        }
    }

    public var message: LocalAPIMessage { .notification(method: event.rawValue, params: params) }

    /// Reads a notification (client side); nil for an unknown method or a malformed one.
    public init?(method: String, params: JSONValue) {
        guard let event = LocalAPIEvent(rawValue: method), let sequence = params["sequence"]?.int64Value else {
            return nil
        }
        switch event {
        case .authStateChanged:
            guard let stateJSON = params["state"], let state = WireState(json: stateJSON),
                let reason = params["reason"]?.stringValue
            else { return nil }
            self = .authStateChanged(
                state: state, previousUid: params["previousUid"]?.stringValue, reason: reason, sequence: sequence)
        case .idTokenChanged:
            guard let uid = params["uid"]?.stringValue, let expiresAt = params["expiresAt"]?.stringValue else {
                return nil
            }
            self = .idTokenChanged(uid: uid, expiresAt: expiresAt, sequence: sequence)
        case .userUpdated:
            guard let stateJSON = params["state"], let state = WireState(json: stateJSON) else { return nil }
            self = .userUpdated(state: state, sequence: sequence)
        case .connectivityChanged:
            guard let connectivity = params["connectivity"]?.stringValue else { return nil }
            self = .connectivityChanged(
                connectivity: connectivity, rateLimit: params["rateLimit"].flatMap { SesameRateLimit(json: $0) },
                sequence: sequence)
        case .accountMerge:
            guard let mergeJSON = params["merge"], let merge = WireMerge(json: mergeJSON) else { return nil }
            self = .accountMerge(merge: merge, sequence: sequence)
        case .shutdown:
            self = .shutdown(reason: params["reason"]?.stringValue ?? "", sequence: sequence)
        case .signInFlowChanged:
            guard let flowJSON = params["flow"], let flow = WireSignInFlow(json: flowJSON),
                let stateJSON = params["state"],
                let state = WireState(json: stateJSON)
            else { return nil }
            self = .signInFlowChanged(flow: flow, state: state, sequence: sequence)
        case .accessRequestsChanged:
            guard let requests = params["accessRequests"]?.arrayValue else { return nil }
            self = .accessRequestsChanged(
                accessRequests: requests.compactMap { SesameAccessRequest(json: $0) }, sequence: sequence)
        }
    }
}
