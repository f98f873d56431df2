/// What a sign-in in progress waits on: the `/authorize` browser flows by state (kept in memory
/// only), the MFA challenges by id (`auth.mfa_challenges`) and the MFA rate-limit buckets.
struct GoTrueChallenges: Sendable {
    var flows: [String: FlowState] = [:]
    var mfa: [String: MFAChallenge] = [:]
    /// Applied with a rate-limit header only.
    var limits: MFARateLimiter

    /// Drops `factorId`'s challenges, or those of any of `factorIds`.
    mutating func drop(factors factorIds: Set<String>) {
        mfa = mfa.filter { !factorIds.contains($0.value.factorId) }
    }
}
