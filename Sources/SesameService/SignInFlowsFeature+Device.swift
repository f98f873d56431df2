import Foundation
import Logging
import SesameCore

/// The device flow (RFC 8628): the daemon polls the provider and, on approval, signs in by
/// `signInWithIdp`'s rules. ``DevicePoll`` decides every step.
extension SessionHost {
    func startDeviceFlow(_ request: SignInFlowRequest) async throws(AuthError) -> SignInFlow {
        let providerId = request.providerId
        guard let client = features.signInFlows.deviceAuthorization else {
            throw AuthError(
                .operationNotAllowed,
                message:
                    "No device sign-in is configured for \(providerId): set [oauth.\"\(providerId)\"] in the daemon's configuration."
            )
        }
        let config: DeviceFlowProvider
        do throws(RemoteAuthError) {
            config = try client.provider(providerId)
            // Said before the person is sent anywhere: the backend must take this provider's tokens.
            try provider.checkFederatedSignIn(providerId: providerId, yieldsIDToken: config.yieldsIDToken)
        } catch {
            throw error.authError
        }
        let authorization: DeviceAuthorization
        do throws(RemoteAuthError) {
            authorization = try await client.start(providerId: providerId)
        } catch {
            logger.warning(
                "The identity provider did not start a device sign-in",
                metadata: ["provider": "\(providerId)", "error": "\(error.authError.reason.rawValue)"])
            throw error.authError
        }
        let poll = DevicePoll(
            interval: authorization.interval, deadline: flowDeadline(expiresIn: authorization.expiresIn))
        let flow = SignInFlow(
            flowId: newFlowId(), providerId: providerId, kind: .device, verificationUri: authorization.verificationUri,
            verificationUriComplete: authorization.verificationUriComplete, userCode: authorization.userCode,
            expiresAt: poll.deadline, intervalSeconds: Int(poll.interval.rounded(.up)), purpose: request.purpose)
        let code = authorization.deviceCode
        await openFlow(flow, secret: .device(code)) { host in
            await host.runDevicePoll(flow, code: code, poll: poll, client: client)
        }
        return flow
    }

    /// Runs one device flow (``DeviceFlowSignIn``) until it ends, or its task is cancelled.
    func runDevicePoll(
        _ flow: SignInFlow, code: DeviceCode, poll: DevicePoll, client: any DeviceAuthorizationClient
    ) async {
        var job = DeviceFlowSignIn(poll: poll)
        await job.drive(from: job.start(at: now())) { action in
            await performDeviceStep(action, flow: flow, code: code, client: client)
        }
    }

    /// Performs one step of a device flow; a flow no longer open (or a cancelled task) is closed.
    private func performDeviceStep(
        _ action: DeviceFlowSignIn.Action, flow: SignInFlow, code: DeviceCode, client: any DeviceAuthorizationClient
    ) async -> StepResult<DeviceFlowSignIn.Event, Void> {
        guard features.signInFlows.isOpen(flow.flowId), !Task.isCancelled else { return .finished(()) }
        switch action {
        case .wait(let seconds):
            do { try await features.signInFlows.sleeper.sleep(seconds: seconds) } catch { return .finished(()) }
            return .next(.woke(at: now()))
        case .poll:
            do throws(RemoteAuthError) {
                let answer = try await client.poll(providerId: flow.providerId, deviceCode: code)
                return .next(.answered(answer, at: now(), random: .random(in: 0...1)))
            } catch {
                if error.isTransient {
                    logger.warning(
                        "Polling the identity provider failed; polling again later",
                        metadata: ["flow.id": "\(flow.flowId)", "error": "\(error.authError.reason.rawValue)"])
                }
                return .next(.pollFailed(error, at: now(), random: .random(in: 0...1)))
            }
        case .signIn(let credential):
            do throws(AuthError) {
                return .next(.signedIn(try await signInApproved(credential, flow: flow)))
            } catch {
                if error.category == .backend {
                    logger.warning(
                        "The sign-in with an approved device flow failed; trying again",
                        metadata: ["flow.id": "\(flow.flowId)", "reason": "\(error.reason.rawValue)"])
                }
                return .next(.signInFailed(error, at: now(), random: .random(in: 0...1)))
            }
        case .end(let status, let outcome):
            await endFlow(flow.flowId, status: status, outcome: outcome)
            return .next(.ended)
        case .stop:
            return .finished(())
        }
    }

    /// Signs in with an approved flow's credential, as the only session-changing flow; nothing
    /// when the flow was cancelled meanwhile.
    private func signInApproved(_ credential: FederatedCredential, flow: SignInFlow) async throws(AuthError) -> Merge? {
        let attempt = federatedAttempt(credential)
        return try await exclusively { () async throws(AuthError) in
            guard features.signInFlows.isOpen(flow.flowId) else { throw notOpenError(flow.flowId) }
            return try await signInFederated(purpose: flow.purpose, attempt).merge
        }
    }
}
