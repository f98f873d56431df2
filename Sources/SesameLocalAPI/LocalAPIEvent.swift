/// The notification names a client can subscribe to.
public enum LocalAPIEvent: String, Sendable, Hashable, CaseIterable {
    case authStateChanged
    case idTokenChanged
    case userUpdated
    case connectivityChanged
    case accountMerge
    case shutdown
    case signInFlowChanged

    /// What `subscribe` without `events` delivers: everything but `accountMerge`.
    public static let defaultSet: Set<LocalAPIEvent> = Set(allCases).subtracting([.accountMerge])

    /// Whether the event advances `sequence`.
    public var advancesSequence: Bool {
        switch self {
        case .authStateChanged, .idTokenChanged, .userUpdated, .connectivityChanged, .signInFlowChanged: true
        case .accountMerge, .shutdown: false
        }
    }
}
