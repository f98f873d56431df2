import SesameClient

/// The output of the commands that sign in (`sign-in`, `complete-link`, `sign-in-idp`).
enum SignInResultText {
    static func json(_ result: (state: SesameState, merge: SesameMerge?)) -> JSONValue {
        .object(["merge": result.merge?.json ?? .null, "state": result.state.json])
    }

    static func text(_ result: (state: SesameState, merge: SesameMerge?)) -> String {
        var line = StatusRenderer.oneLine(result.state)
        if let merge = result.merge {
            if result.state.pendingMerges.contains(where: { $0.mergeId == merge.mergeId }) {
                line +=
                    "\nthe guest's data (uid \(merge.fromUid)) will be merged into this account (merge \(merge.mergeId);"
                    + " see `sesamectl merges`)"
            } else {
                // merge.hold = 0: the daemon completed it at once.
                line += "\nthe guest (uid \(merge.fromUid)) was merged into this account (merge \(merge.mergeId))"
            }
        }
        return line
    }
}
