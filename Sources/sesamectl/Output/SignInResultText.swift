import SesameClient

/// The output of the commands that sign in (`sign-in`, `complete-link`, `sign-in-idp`).
enum SignInResultText {
    static func json(_ result: (state: SesameState, merge: SesameMerge?)) -> String {
        JSONText.object([("merge", result.merge?.json ?? "null"), ("state", result.state.json)])
    }

    static func text(_ result: (state: SesameState, merge: SesameMerge?)) -> String {
        var line = StatusRenderer.oneLine(result.state)
        if let merge = result.merge {
            line += "\nthe guest's data (uid \(merge.fromUid)) will be merged into this account (merge \(merge.mergeId))"
        }
        return line
    }
}
