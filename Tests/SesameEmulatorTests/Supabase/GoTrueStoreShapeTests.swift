import SesameEmulatorTesting
import SesameLocalAPI
import Testing

@testable import SesameEmulator

/// Issue 33's shape: the Supabase state is split by concern, each owner with at most 8 stored
/// properties, PostgREST's tables an owner of their own.
@Suite("Supabase port: the state's owners")
struct GoTrueStoreShapeTests {
    @Test func everyOwnerHoldsAtMostEightFields() {
        let store = GoTrueStore(configuration: SupabaseEmulatorConfiguration(port: 0), clock: EmulatorTime().clock)
        let owners: [(String, Any)] = [
            ("GoTrueStore", store), ("GoTrueUsers", GoTrueUsers()), ("GoTrueSessions", GoTrueSessions()),
            ("GoTrueMailbox", GoTrueMailbox()),
            ("GoTrueChallenges", GoTrueChallenges(limits: MFARateLimiter(perMinute: 15))),
            ("PostgRESTTables", PostgRESTTables()),
        ]
        for (name, owner) in owners {
            // An actor's runtime adds `$defaultActor`, which is no stored property of ours.
            let fields = Mirror(reflecting: owner).children.map { $0.label ?? "?" }.filter { !$0.hasPrefix("$") }
            #expect(fields.count <= 8, "\(name): \(fields)")
        }
        let storeFields = Mirror(reflecting: store).children.compactMap(\.label)
        #expect(storeFields.contains("tables"))
    }
}
