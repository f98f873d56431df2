import Foundation
import SesameCore
import Testing

private let t0 = Date(timeIntervalSince1970: 1_800_000_000)

private func session(_ uid: String, anonymous: Bool, token: Int = 1) -> Session {
    Session(
        user: User(uid: uid, isAnonymous: anonymous, providers: anonymous ? [] : ["password"]),
        idToken: IDToken(
            rawValue: "id\(token)", expiresAt: t0.addingTimeInterval(3600), issuedAt: t0, signInProvider: "x"),
        refreshToken: RefreshToken("r\(token)"))
}

private func machine(with stored: PersistedState?, anonymousFirst: Bool = true) -> SessionMachine {
    var machine = SessionMachine(anonymousFirst: anonymousFirst)
    _ = machine.handle(.loaded(stored))
    return machine
}

@Suite("SessionMachine transitions")
struct SessionMachineTests {
    @Test("status is starting until the keyring is loaded")
    func startingUntilLoaded() {
        let machine = SessionMachine()
        #expect(machine.status == .starting)
    }

    struct LoadCase: Sendable, CustomTestStringConvertible {
        var name: String
        var stored: PersistedState?
        var anonymousFirst: Bool
        var status: AuthStatus
        var actions: [SessionMachine.Action]
        var testDescription: String { name }
    }

    @Test(
        "loading the keyring",
        arguments: [
            LoadCase(
                name: "no keyring, anonymous first", stored: nil, anonymousFirst: true, status: .signedOut,
                actions: [.rescheduleRefresh, .signInAnonymously]),
            LoadCase(
                name: "no keyring, anonymous first off", stored: nil, anonymousFirst: false, status: .signedOut,
                actions: [.rescheduleRefresh]),
            LoadCase(
                name: "stored anonymous", stored: PersistedState(session: session("a", anonymous: true)),
                anonymousFirst: true, status: .anonymous, actions: [.rescheduleRefresh]),
            LoadCase(
                name: "stored account", stored: PersistedState(session: session("b", anonymous: false)),
                anonymousFirst: true, status: .authenticated, actions: [.rescheduleRefresh]),
            LoadCase(
                name: "stored deletions",
                stored: PersistedState(
                    session: session("b", anonymous: false),
                    pendingDeletions: [session("a", anonymous: true)]),
                anonymousFirst: true, status: .authenticated, actions: [.rescheduleRefresh, .processDeletions]),
        ])
    func load(_ c: LoadCase) {
        var machine = SessionMachine(anonymousFirst: c.anonymousFirst)
        let actions = machine.handle(.loaded(c.stored))
        #expect(machine.status == c.status)
        #expect(actions == c.actions)
    }

    struct TransitionCase: Sendable, CustomTestStringConvertible {
        var name: String
        var before: Session?
        var event: SessionMachine.Event
        var status: AuthStatus
        var actions: [SessionMachine.Action]
        var testDescription: String { name }
    }

    @Test(
        "transitions persist before they notify",
        arguments: [
            TransitionCase(
                name: "anonymous user created", before: nil,
                event: .signedIn(session("a", anonymous: true), reason: .anonymousCreated), status: .anonymous,
                actions: [
                    .persist, .notifyAuthStateChanged(reason: .anonymousCreated, previousUid: nil),
                    .notifyIdTokenChanged, .rescheduleRefresh,
                ]),
            TransitionCase(
                name: "guest linked keeps the uid", before: session("a", anonymous: true),
                event: .linked(session("a", anonymous: false, token: 2)), status: .authenticated,
                actions: [
                    .persist, .notifyAuthStateChanged(reason: .linked, previousUid: "a"),
                    .notifyIdTokenChanged, .rescheduleRefresh,
                ]),
            TransitionCase(
                name: "account signs out, anonymous first: its session is to be ended at the backend",
                before: session("b", anonymous: false),
                event: .signedOut, status: .signedOut,
                actions: [
                    .persist, .notifyAuthStateChanged(reason: .signedOut, previousUid: "b"),
                    .rescheduleRefresh, .signInAnonymously, .processDeletions,
                ]),
            TransitionCase(
                name: "switching from one account to another ends the old one's session",
                before: session("b", anonymous: false),
                event: .signedIn(session("c", anonymous: false, token: 2), reason: .signedIn), status: .authenticated,
                actions: [
                    .persist, .notifyAuthStateChanged(reason: .signedIn, previousUid: "b"),
                    .notifyIdTokenChanged, .rescheduleRefresh, .processDeletions,
                ]),

            TransitionCase(
                name: "guest reset queues its deletion", before: session("a", anonymous: true),
                event: .reset, status: .signedOut,
                actions: [
                    .persist, .notifyAuthStateChanged(reason: .reset, previousUid: "a"),
                    .rescheduleRefresh, .signInAnonymously, .processDeletions,
                ]),
            TransitionCase(
                name: "revoked session", before: session("b", anonymous: false),
                event: .sessionRevoked, status: .signedOut,
                actions: [
                    .persist, .notifyAuthStateChanged(reason: .sessionRevoked, previousUid: "b"),
                    .rescheduleRefresh, .signInAnonymously,
                ]),
            TransitionCase(
                name: "new tokens only", before: session("a", anonymous: true),
                event: .updated(session("a", anonymous: true, token: 2)), status: .anonymous,
                actions: [.persist, .notifyIdTokenChanged, .rescheduleRefresh]),
            TransitionCase(
                name: "nothing changed", before: session("a", anonymous: true),
                event: .updated(session("a", anonymous: true)), status: .anonymous, actions: []),
            TransitionCase(
                name: "update for another uid is ignored", before: session("a", anonymous: true),
                event: .updated(session("z", anonymous: true)), status: .anonymous, actions: []),
            TransitionCase(
                name: "sign-out with nobody signed in", before: nil, event: .signedOut, status: .signedOut, actions: []),
            TransitionCase(
                name: "going offline notifies once", before: nil, event: .backendUnreachable, status: .signedOut,
                actions: [.notifyConnectivityChanged]),
        ])
    func transition(_ c: TransitionCase) {
        var machine = machine(with: c.before.map { PersistedState(session: $0) })
        let actions = machine.handle(c.event)
        #expect(machine.status == c.status)
        #expect(actions == c.actions)
    }

    @Test("a merge is recorded in the same write as the switch, and completing it queues the guest's deletion")
    func mergeLifecycle() throws {
        let guest = session("guest", anonymous: true)
        var machine = machine(with: PersistedState(session: guest))
        let account = session("acct", anonymous: false, token: 3)
        let merge = Merge(mergeId: "m1", fromUid: "guest", toUid: "acct", createdAt: t0)
        let actions = machine.handle(.merged(account, PendingMerge(merge: merge, guest: guest)))
        #expect(actions.first == .persist)
        #expect(actions.contains(.notifyMergeRecorded(merge)))
        #expect(machine.persisted.session?.uid == "acct")
        #expect(machine.persisted.pendingMerges.map(\.merge) == [merge])

        #expect(machine.handle(.mergeCompleted(mergeId: "nope")) == [])
        let completion = machine.handle(.mergeCompleted(mergeId: "m1"))
        #expect(completion == [.persist, .notifyUserUpdated, .processDeletions])
        #expect(machine.persisted.pendingMerges.isEmpty)
        #expect(machine.persisted.pendingDeletions.map(\.uid) == ["guest"])
        #expect(machine.handle(.deletionConfirmed(uid: "guest")) == [.persist])
        #expect(machine.persisted.pendingDeletions.isEmpty)
    }

    @Test("a left session is kept on the durable to-do list until the backend ended it")
    func revocationLifecycle() {
        let account = session("b", anonymous: false)
        var machine = machine(with: PersistedState(session: account))
        _ = machine.handle(.signedOut)
        #expect(machine.persisted.pendingRevocations == [account])
        #expect(machine.persisted.hasPendingCleanup)
        var restarted = SessionMachine()
        #expect(restarted.handle(.loaded(machine.persisted)).contains(.processDeletions))
        #expect(machine.handle(.revocationConfirmed(RefreshToken("other"))) == [])
        #expect(machine.handle(.revocationConfirmed(account.refreshToken)) == [.persist])
        #expect(!machine.persisted.hasPendingCleanup)
    }

    /// Each write of a merge's life (record + switch, complete, guest deleted) is one keyring
    /// write; a crash after any of them restarts from what it wrote.
    @Test("a merge replayed after a crash at each write continues from there")
    func mergeCrashPoints() {
        let guest = session("guest", anonymous: true)
        let account = session("acct", anonymous: false, token: 3)
        let merge = Merge(mergeId: "m1", fromUid: "guest", toUid: "acct", createdAt: t0)
        var machine = machine(with: PersistedState(session: guest))

        _ = machine.handle(.merged(account, PendingMerge(merge: merge, guest: guest)))
        var afterRecord = SessionMachine()
        #expect(afterRecord.handle(.loaded(machine.persisted)) == [.rescheduleRefresh])
        #expect(afterRecord.session?.uid == "acct")
        #expect(afterRecord.persisted.pendingMerges.map(\.merge) == [merge])

        _ = machine.handle(.mergeCompleted(mergeId: "m1"))
        var afterComplete = SessionMachine()
        #expect(afterComplete.handle(.loaded(machine.persisted)) == [.rescheduleRefresh, .processDeletions])
        #expect(afterComplete.persisted.pendingDeletions.map(\.uid) == ["guest"])
        #expect(afterComplete.persisted.pendingMerges.isEmpty)

        _ = machine.handle(.deletionConfirmed(uid: "guest"))
        var afterDeletion = SessionMachine()
        #expect(afterDeletion.handle(.loaded(machine.persisted)) == [.rescheduleRefresh])
        #expect(!afterDeletion.persisted.hasPendingCleanup)
    }

    @Test("connectivity flips notify once each way")
    func connectivity() {
        var machine = machine(with: nil)
        #expect(machine.handle(.backendUnreachable) == [.notifyConnectivityChanged])
        #expect(machine.handle(.backendUnreachable) == [])
        #expect(machine.connectivity == .offline)
        #expect(machine.handle(.backendReached) == [.notifyConnectivityChanged])
        #expect(machine.handle(.backendReached) == [])
    }

    @Test("a rate limit is its own connectivity, told when it starts, when its limit changes and when it ends")
    func rateLimited() {
        var machine = machine(with: nil)
        let limit = RateLimit(operation: "refresh", retryAt: Date(timeIntervalSince1970: 100))
        #expect(machine.handle(.backendRateLimited(limit)) == [.notifyConnectivityChanged])
        #expect(machine.handle(.backendRateLimited(limit)) == [])
        #expect(machine.connectivity == .rateLimited && machine.rateLimit == limit)
        let later = RateLimit(operation: "signIn", retryAt: Date(timeIntervalSince1970: 200))
        #expect(machine.handle(.backendRateLimited(later)) == [.notifyConnectivityChanged])
        #expect(machine.handle(.backendUnreachable) == [.notifyConnectivityChanged])
        #expect(machine.connectivity == .offline && machine.rateLimit == nil)
        _ = machine.handle(.backendRateLimited(limit))
        #expect(machine.handle(.backendReached) == [.notifyConnectivityChanged])
        #expect(machine.connectivity == .online && machine.rateLimit == nil)
    }

    @Test("an older keyring without the newer fields still decodes")
    func decodesOlderKeyrings() throws {
        let json = #"{"session":null}"#
        let state = try JSONDecoder().decode(PersistedState.self, from: Data(json.utf8))
        #expect(state == PersistedState())
    }

    @Test("tokens never show their secret in descriptions")
    func redaction() {
        let s = session("a", anonymous: true)
        #expect(!"\(s.idToken)".contains("id1"))
        #expect(!"\(s.refreshToken)".contains("r1"))
        #expect(!"\(Credential.password(email: "a@b.c", password: "hunter22"))".contains("hunter22"))
    }
}
