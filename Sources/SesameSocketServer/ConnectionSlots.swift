/// Who may take one more connection: at most `maximum` in all; each uid at most `perUid`;
/// the last `reserve` slots only for the exempt uids (root and the daemon's own), which have
/// no share of their own. A pure state machine, kept by the server under its lock.
struct ConnectionSlots: Sendable {
    let maximum: Int
    let perUid: Int
    let reserve: Int
    let exempt: Set<UInt32>
    private(set) var total = 0
    private var byUid: [UInt32: Int] = [:]

    /// Why a connection was refused.
    enum Refusal: Equatable {
        /// Every slot (or every slot but the reserve) is taken.
        case full
        /// This uid holds its share.
        case uidShare
    }

    /// `reserve` defaults to 1/16 of `maximum` (64 of 1,024).
    init(maximum: Int, perUid: Int, exempt: Set<UInt32>, reserve: Int? = nil) {
        self.maximum = max(1, maximum)
        self.perUid = max(1, perUid)
        self.reserve = min(self.maximum - 1, max(0, reserve ?? maximum / 16))
        self.exempt = exempt
    }

    /// Takes a slot for `uid`, or says why not.
    mutating func admit(_ uid: UInt32) -> Refusal? {
        if exempt.contains(uid) {
            guard total < maximum else { return .full }
        } else {
            guard total < maximum - reserve else { return .full }
            guard byUid[uid, default: 0] < perUid else { return .uidShare }
            byUid[uid, default: 0] += 1
        }
        total += 1
        return nil
    }

    /// Gives back a slot `admit` took for `uid`.
    mutating func release(_ uid: UInt32) {
        total -= 1
        guard !exempt.contains(uid), let held = byUid[uid] else { return }
        byUid[uid] = held > 1 ? held - 1 : nil
    }

    func held(by uid: UInt32) -> Int { byUid[uid, default: 0] }
}
