import Foundation
import SesameClient

/// Waiting for a sign-in flow's outcome with `awaitSignIn`.
enum FlowWait {
    /// The longest single `awaitSignIn`, so the time left is asked for again now and then.
    static let longestWait: TimeInterval = 60
    /// How long after `expiresAt` a flow sesamed still calls pending counts as expired.
    static let expiryGrace: TimeInterval = 60

    /// `awaitSignIn` in a loop, each wait at most the time left (at least 1 s);
    /// `operation-in-progress` means the flow goes on.
    static func outcome(
        of flow: SesameSignInFlow, client: SesameClient, now: @Sendable () -> Date = { Date() }
    ) async throws -> (state: SesameState, merge: SesameMerge?) {
        while true {
            let begun = now()
            let left = flow.expiresAt.timeIntervalSince(begun)
            if left < -expiryGrace {
                throw SesameClientError.daemon(
                    .init(code: 1000, reason: "expired-sign-in-flow", message: "The sign-in flow has expired."))
            }
            let seconds = min(max(left, 1), longestWait).rounded(.up)
            do {
                return try await client.awaitSignIn(flowId: flow.flowId, timeout: .seconds(seconds))
            } catch let error as SesameClientError where error.reason == "operation-in-progress" {
                // A daemon that answers at once must not make this a busy loop.
                if now().timeIntervalSince(begun) < 1 { try await Task.sleep(for: .seconds(1)) }
            }
        }
    }

    /// The result of whichever of `first` and `second` finishes first (its error, if it
    /// throws); the other is cancelled.
    static func firstOf<T: Sendable>(
        _ first: @escaping @Sendable () async throws -> T, _ second: @escaping @Sendable () async throws -> T
    ) async throws -> T {
        try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask(operation: first)
            group.addTask(operation: second)
            defer { group.cancelAll() }
            guard let result = try await group.next() else { throw CancellationError() }
            return result
        }
    }
}
