import Foundation

// The daemon stamps and compares dates on its steady timeline (``SteadyClock``); what it shows
// outside (the local API, the metrics) is on the calendar, `calendarOffset` seconds ahead
// (``WallClock/calendarOffset``; zero until the calendar jumps). Dates a backend gave (a
// user's `createdAt`, a factor's `enrolledAt`) are the calendar's already and are not moved.

extension IDToken {
    /// The token with its dates as the calendar reads them (for the wire, never for deciding).
    public func onCalendar(_ offset: TimeInterval) -> IDToken {
        guard offset != 0 else { return self }
        return IDToken(
            rawValue: rawValue, expiresAt: expiresAt.addingTimeInterval(offset),
            issuedAt: issuedAt.addingTimeInterval(offset), signInProvider: signInProvider)
    }
}

extension SignInFlow {
    /// The flow with its expiry as the calendar reads it.
    public func onCalendar(_ offset: TimeInterval) -> SignInFlow {
        var flow = self
        flow.expiresAt.addTimeInterval(offset)
        return flow
    }
}

extension Merge {
    /// The merge with its creation (the daemon's stamp) as the calendar reads it.
    public func onCalendar(_ offset: TimeInterval) -> Merge {
        var merge = self
        merge.createdAt.addTimeInterval(offset)
        return merge
    }
}

extension AuthState {
    /// The state with the dates the daemon stamped (the token's expiry, the open flow's and
    /// challenge's, a rate limit's retry, pending merges' creation) as the calendar reads them.
    public func onCalendar(_ offset: TimeInterval) -> AuthState {
        guard offset != 0 else { return self }
        var state = self
        state.tokenExpiresAt?.addTimeInterval(offset)
        state.signInPrompt?.expiresAt.addTimeInterval(offset)
        state.secondFactor?.expiresAt.addTimeInterval(offset)
        state.rateLimit?.retryAt.addTimeInterval(offset)
        state.pendingMerges = pendingMerges.map { $0.onCalendar(offset) }
        return state
    }
}
