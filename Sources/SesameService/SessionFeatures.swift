/// The features' own fields, stored by ``SessionService`` and reached by a feature only through
/// ``SessionHost/features`` on the owner's executor (not Sendable). Each field belongs to one
/// feature, which alone reads and changes it.
final class SessionFeatures {
    /// The username directory and its rules (``UsernameFlows``); nil when usernames are off.
    let usernames: UsernameFlows?
    /// The interactive sign-in flows (``SignInFlowsFeature``), in memory only.
    var signInFlows: SignInFlows
    /// The open second-factor challenge (``SecondFactorsFeature``), in memory only.
    var secondFactors: SecondFactors
    /// The account-security feature's enrolments and held code (``AccountSecrets``), in memory only.
    var accountSecrets = AccountSecrets()
    /// The tokens feature's shared refresh (``TokenRefresh``).
    var refresh = TokenRefresh()
    /// A cleanup run is under way (a second one only takes the due work off the plan).
    var cleanupRunning = false

    init(usernames: UsernameFlows?, signInFlows: SignInFlows, secondFactors: SecondFactors) {
        self.usernames = usernames
        self.signInFlows = signInFlows
        self.secondFactors = secondFactors
    }
}

@available(*, unavailable)
extension SessionFeatures: Sendable {}
