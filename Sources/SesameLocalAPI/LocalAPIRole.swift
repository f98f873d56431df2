/// What a peer may do. Each role includes the ones before it.
public enum LocalAPIRole: String, Sendable, Hashable, Comparable, CaseIterable {
    case none
    case observer
    case reader
    case manager

    private var rank: Int {
        switch self {
        case .none: 0
        case .observer: 1
        case .reader: 2
        case .manager: 3
        }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rank < rhs.rank }
}
