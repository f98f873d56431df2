import Foundation
import Logging
import SesameCore

/// The steps of ``SignInFlowsFeature``, written against the host only: the flows' state is the
/// feature's own (``SessionFeatures/signInFlows``).
extension SessionHost {
    /// Starts an interactive sign-in flow; a new one cancels the open one.
    ///
    /// Nothing is asked of an identity provider before the flow is known to be possible: a
    /// provider with no configuration, or one whose tokens the backend cannot take (a provider
    /// with no ID token on Supabase), is `operation-not-allowed` before the person is sent
    /// anywhere. `purpose: reauthenticate` needs a signed-in account (`requires-account`).
    func startSignInFlow(_ request: SignInFlowRequest) async throws(AuthError) -> SignInFlow {
        if request.purpose == .reauthenticate, session?.user.isAnonymous != false {
            throw AuthError(.requiresAccount, message: "Reauthentication needs a signed-in account, not a guest.")
        }
        switch request.kind {
        case .device: return try await startDeviceFlow(request)
        case .browser: return try await startBrowserFlow(request)
        }
    }

    /// Waits until the flow ends: its outcome, or its error; `operation-in-progress` at `timeout`
    /// (the flow goes on). A flow that just ended answers at once; an unknown one is
    /// `expired-sign-in-flow`.
    func awaitSignInFlow(flowId: String, timeout: TimeInterval) async throws(AuthError) -> SessionService.SignInOutcome
    {
        guard features.signInFlows.isOpen(flowId) else {
            return SessionService.SignInOutcome(state: state, merge: try endedOutcome(flowId).get())
        }
        let id = features.signInFlows.newWaiterId()
        let (answers, answer) = AsyncStream.makeStream(
            of: SignInFlows.Outcome.self, bufferingPolicy: .bufferingNewest(1))
        features.signInFlows.addWaiter(id, to: flowId, answer)
        let sleeper = features.signInFlows.sleeper
        // The flow's end or the timeout, whichever comes first; a caller that goes away (its
        // connection closed) stops waiting. The flow goes on either way.
        let outcome = await withTaskGroup(of: SignInFlows.Outcome?.self) { group in
            group.addTask { await answers.first { _ in true } }
            group.addTask {
                try? await sleeper.sleep(seconds: max(0, timeout))
                return nil
            }
            let first = await group.next() ?? nil
            group.cancelAll()
            return first
        }
        features.signInFlows.removeWaiter(id)
        let ended =
            outcome
            ?? .failure(
                AuthError(
                    .operationInProgress,
                    message: "The sign-in is still waiting for the person: wait again, or cancel it."))
        return SessionService.SignInOutcome(state: state, merge: try ended.get())
    }

    /// Cancels the flow (`sign-in-cancelled` for whoever waits on it). A flow that already ended
    /// is left as it ended; an unknown one is `expired-sign-in-flow`. The id of the open
    /// second-factor challenge cancels that challenge.
    func cancelSignInFlow(flowId: String) async throws(AuthError) {
        if cancelSecondFactor(flowId) { return }
        if features.signInFlows.isOpen(flowId) {
            logger.info("Cancelled a sign-in flow", metadata: ["flow.id": "\(flowId)"])
            await endFlow(flowId, status: .cancelled, outcome: .failure(AuthError(.signInCancelled)))
            return
        }
        guard features.signInFlows.endedFlow(flowId) != nil else { throw AuthError(.expiredSignInFlow) }
    }

    // MARK: - Shared by both kinds of flow

    /// Opens `flow` (cancelling the open one), publishes it and starts `work` as a child task
    /// of ``run()``, ended with the flow.
    func openFlow(
        _ flow: SignInFlow, secret: SignInFlows.Secret,
        work: @escaping @Sendable (isolated any SessionHost) async -> Void
    ) async {
        if let previous = features.signInFlows.open?.flow.flowId {
            logger.info("A new sign-in flow cancels the open one", metadata: ["flow.id": "\(previous)"])
            await endFlow(previous, status: .cancelled, outcome: .failure(AuthError(.signInCancelled)))
            // Another startSignIn may have opened its flow while this one waited to publish.
            return await openFlow(flow, secret: secret, work: work)
        }
        features.signInFlows.begin(flow, secret: secret)
        logger.info(
            "Started a sign-in flow",
            metadata: [
                "flow.id": "\(flow.flowId)", "flow.kind": "\(flow.kind.rawValue)", "provider": "\(flow.providerId)",
            ])
        await publishFlow(flow)
        guard let ending = features.signInFlows.openFlow(flow.flowId)?.ending else { return }
        spawn { host in
            await ending.run { await work(host) }
        }
    }

    /// Ends the open flow `flowId` (nothing when it is not open): publishes its last status,
    /// then answers its waiters, so they hear of the change before their answer.
    func endFlow(_ flowId: String, status: SignInFlow.Status, outcome: SignInFlows.Outcome) async {
        guard let ending = features.signInFlows.end(flowId, status: status, outcome: outcome) else { return }
        if status != .completed, status != .cancelled, case .failure(let error) = outcome {
            logger.info(
                "A sign-in flow ended",
                metadata: [
                    "flow.id": "\(flowId)", "status": "\(status.rawValue)", "reason": "\(error.reason.rawValue)",
                ])
        } else {
            logger.info("A sign-in flow ended", metadata: ["flow.id": "\(flowId)", "status": "\(status.rawValue)"])
        }
        await publishFlow(ending.flow)
        for waiter in ending.waiters { waiter.answer(outcome) }
    }

    /// How a flow that is no longer open ended (`expired-sign-in-flow` when it is unknown).
    func endedOutcome(_ flowId: String) -> SignInFlows.Outcome {
        features.signInFlows.endedFlow(flowId)?.outcome ?? .failure(AuthError(.expiredSignInFlow))
    }

    /// The error for a flow id that is not open: how it ended, or `expired-sign-in-flow`.
    func notOpenError(_ flowId: String) -> AuthError {
        if case .failure(let error) = endedOutcome(flowId), error.reason == .signInCancelled { return error }
        return AuthError(.expiredSignInFlow)
    }

    /// Ends the flow as expired at its `expiresAt` (``Expiry``; browser flows: device flows
    /// expire by their poll).
    func expire(_ flowId: String, at expiresAt: Date) async {
        var job = Expiry(deadline: expiresAt)
        await job.drive(from: job.start(at: now())) { action -> StepResult<Expiry.Event, Void> in
            guard features.signInFlows.isOpen(flowId) else { return .finished(()) }
            switch action {
            case .wait(let seconds):
                do { try await features.signInFlows.sleeper.sleep(seconds: seconds) } catch { return .finished(()) }
                return .next(.woke(at: now()))
            case .expire:
                await endFlow(flowId, status: .expired, outcome: .failure(AuthError(.expiredSignInFlow)))
                return .next(.expired)
            case .stop:
                return .finished(())
            }
        }
    }

    /// Publishes a flow's change in order with the session's changes (`signInFlowChanged`).
    private func publishFlow(_ flow: SignInFlow) async {
        await emitInOrder(.signInFlowChanged(flow))
    }

    /// A new flow's id: random, never derived from a secret.
    func newFlowId() -> String { UUID().uuidString.lowercased() }

    /// When a flow that the provider keeps `expiresIn` seconds ends here (at most 15 minutes).
    func flowDeadline(expiresIn: TimeInterval) -> Date {
        now().addingTimeInterval(max(0, min(expiresIn, SignInFlow.maximumLifetime)))
    }
}
