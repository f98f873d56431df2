import Foundation
import SesameLocalAPI
import Testing

@testable import SesameClient

@Suite("Calls")
struct SesameClientCallTests {
    @Test func helloAndStateMapTheWireObjects() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let hello = try await client.hello()
        #expect(hello.server == "sesamed")
        #expect(hello.role == .manager)
        #expect(hello.instance == (await daemon.instance))
        #expect(hello.peerPid == 42)

        let state = try await client.state()
        #expect(state.status == .anonymous)
        #expect(state.user?.uid == "guest-1")
        #expect(state.user?.isAnonymous == true)
        #expect(state.connectivity == .online)
        #expect(state.sequence == 1)
        #expect(state.changeReason == nil)
        #expect(state.json == (await daemon.stateJSON))
        await client.close()
        await daemon.stop()
    }

    @Test func idTokenSendsItsParamsAndRedactsTheToken() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("getIdToken") { _ in
            .result([
                "token": "eyJ.secret.jwt", "uid": "guest-1", "expiresAt": "2026-11-21T11:05:00Z",
                "issuedAt": "2026-11-21T10:05:00Z", "signInProvider": "anonymous",
            ])
        }
        let token = try await client.idToken(forceRefresh: true, minValidity: 600, uid: "guest-0")
        #expect(token.token == "eyJ.secret.jwt")
        #expect(token.signInProvider == "anonymous")
        #expect(!token.description.contains("secret"))
        let params = try #require(await daemon.requests("getIdToken").first).params.values
        #expect(params == ["forceRefresh": true, "minValidity": 600, "uid": "guest-0"])
        await client.close()
        await daemon.stop()
    }

    @Test func signInReturnsTheStateAndTheMerge() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let merge = WireMerge(
            mergeId: "m1", fromUid: "guest-1", toUid: "ann", createdAt: Date(timeIntervalSince1970: 0))
        let state = await daemon.stateJSON
        await daemon.script("signIn") { _ in .result(["state": state, "merge": merge.json]) }
        let result = try await client.signIn(identifier: "Ann.Lee", password: "pw")
        #expect(result.merge?.mergeId == "m1")
        #expect(result.merge?.toUid == "ann")
        #expect(result.state.sequence == 1)
        let params = try #require(await daemon.requests("signIn").first).params.values
        #expect(params == ["identifier": "Ann.Lee", "password": "pw"])
        await client.close()
        await daemon.stop()
    }

    @Test func everyMethodSendsTheProtocolsNameAndParams() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let state = await daemon.stateJSON
        for method in LocalAPIMethod.allCases where ![.hello, .getState, .subscribe, .unsubscribe].contains(method) {
            await daemon.script(method.rawValue) { _ in
                switch method {
                case .signIn, .completeSignInLink, .signInWithIdp: .result(["state": state, "merge": .null])
                case .sendSignInLink: .result(["email": "ann@example.com"])
                case .sendPasswordReset, .sendEmailVerification: .result([:])
                case .checkUsername: .result(["username": "ann", "available": false, "reason": "username-taken"])
                case .getIdToken:
                    .result(["token": "t", "uid": "u", "expiresAt": "2026-11-21T11:05:00Z"])
                default: .result(state)
                }
            }
        }
        _ = try await client.signInAnonymously()
        _ = try await client.createAccount(email: "ann@example.com", password: "pw", username: "ann")
        _ = try await client.sendSignInLink(email: "ann@example.com", continueUrl: "https://x.example")
        _ = try await client.completeSignInLink(link: "https://l.example", email: "ann@example.com")
        _ = try await client.signInWithIdp(providerId: "google.com", idToken: "g")
        _ = try await client.linkCredential(.password(email: "ann@example.com", password: "pw"))
        _ = try await client.linkCredential(.emailLink(email: "ann@example.com", link: "https://l.example"))
        _ = try await client.linkCredential(.federated(providerId: "apple.com", idToken: nil, accessToken: "a"))
        _ = try await client.unlink(providerId: "password")
        _ = try await client.signOut(reset: true)
        _ = try await client.deleteAccount()
        _ = try await client.reload()
        _ = try await client.updateProfile(displayName: "Ann")
        try await client.sendPasswordReset(identifier: "ann")
        try await client.sendEmailVerification()
        _ = try await client.setUsername("ann")
        let check = try await client.checkUsername("ann")
        #expect(check == SesameUsernameAvailability(username: "ann", available: false, reason: "username-taken"))
        _ = try await client.completeMerge(mergeId: "m1")
        _ = try await client.idToken()

        let sent = await daemon.requests
        func params(_ method: String, _ index: Int = 0) -> [String: JSONValue] {
            sent.filter { $0.method == method }[index].params.values
        }
        #expect(params("signInAnonymously") == [:])
        #expect(params("createAccount") == ["email": "ann@example.com", "password": "pw", "username": "ann"])
        #expect(params("sendSignInLink") == ["email": "ann@example.com", "continueUrl": "https://x.example"])
        #expect(params("completeSignInLink") == ["link": "https://l.example", "email": "ann@example.com"])
        #expect(params("signInWithIdp") == ["providerId": "google.com", "idToken": "g"])
        #expect(
            params("linkCredential", 0) == [
                "credential": ["providerId": "password", "email": "ann@example.com", "password": "pw"]
            ])
        #expect(
            params("linkCredential", 1) == [
                "credential": ["providerId": "emailLink", "email": "ann@example.com", "link": "https://l.example"]
            ])
        #expect(params("linkCredential", 2) == ["credential": ["providerId": "apple.com", "accessToken": "a"]])
        #expect(params("unlink") == ["providerId": "password"])
        #expect(params("signOut") == ["reset": true])
        #expect(params("deleteAccount") == [:])
        #expect(params("reload") == [:])
        #expect(params("updateProfile") == ["displayName": "Ann"])
        #expect(params("sendPasswordReset") == ["identifier": "ann"])
        #expect(params("sendEmailVerification") == [:])
        #expect(params("setUsername") == ["username": "ann"])
        #expect(params("checkUsername") == ["username": "ann"])
        #expect(params("completeMerge") == ["mergeId": "m1"])
        #expect(params("getIdToken") == [:])
        await client.close()
        await daemon.stop()
    }

    @Test func daemonErrorsKeepCodeReasonMessageAndData() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("createAccount") { _ in
            .error(
                LocalAPIError(
                    code: .authentication, reason: "email-already-in-use", message: "Sign in instead.",
                    data: ["email": "ann@example.com", "providerId": "password"]))
        }
        let error = await #expect(throws: SesameClientError.self) {
            _ = try await client.createAccount(email: "ann@example.com", password: "pw")
        }
        let daemonError = try #require(error?.daemonError)
        #expect(daemonError.code == 1000)
        #expect(daemonError.reason == "email-already-in-use")
        #expect(daemonError.message == "Sign in instead.")
        #expect(daemonError.email == "ann@example.com")
        #expect(daemonError.providerId == "password")
        #expect(try JSONValue.parse(daemonError.dataJSON)["reason"] == "email-already-in-use")
        await client.close()
        await daemon.stop()
    }

    @Test func aMethodTheDaemonLacksIsMethodNotFound() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let error = await #expect(throws: SesameClientError.self) { _ = try await client.reload() }
        #expect(error?.reason == "method-not-found")
        #expect(error?.code == -32601)
        await client.close()
        await daemon.stop()
    }

    @Test func noDaemonIsUnreachableAndNamesTheSocket() async throws {
        let path = FakeDaemon.temporaryPath()
        let client = SesameClient(socketPath: path)
        let error = await #expect(throws: SesameClientError.self) { _ = try await client.state() }
        guard case .daemonUnreachable(let socketPath, _)? = error else {
            Issue.record("expected daemonUnreachable, got \(String(describing: error))")
            return
        }
        #expect(socketPath == path)
    }

    @Test func pipelinedAnswersMatchByIdInAnyOrder() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("reload") { _ in .hold }
        async let held = client.reload()
        await daemon.waitForRequest("reload")
        let state = try await client.state()
        #expect(state.sequence == 1)
        var changed = await daemon.stateJSON.objectValue!
        changed["sequence"] = 9
        await daemon.answerHeld(method: "reload", with: .result(.object(changed)))
        #expect(try await held.sequence == 9)
        await client.close()
        await daemon.stop()
    }

    @Test func requestsBeyondTheInFlightLimitQueue() async throws {
        let (daemon, client) = try await makeDaemonAndClient(maximumRequestsInFlight: 2)
        _ = try await client.hello()
        let state = await daemon.stateJSON
        await daemon.script("reload") { _ in .hold }
        try await withThrowingTaskGroup(of: SesameState.self) { group in
            for _ in 0..<5 { group.addTask { try await client.reload() } }
            for answered in 0..<5 {
                await daemon.waitForRequest("reload", count: min(answered + 2, 5))
                #expect(await daemon.held.count <= 2)
                await daemon.answerHeld(method: "reload", with: .result(state))
            }
            for try await _ in group {}
        }
        #expect(await daemon.maximumHeld == 2)
        #expect(await daemon.requests("reload").count == 5)
        await client.close()
        await daemon.stop()
    }

    @Test func cancellingACallDropsItsAnswer() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("reload") { _ in .hold }
        let task = Task { try await client.reload() }
        await daemon.waitForRequest("reload")
        task.cancel()
        await #expect(throws: CancellationError.self) { _ = try await task.value }
        await daemon.answerHeld(method: "reload", with: .result(await daemon.stateJSON))
        #expect(try await client.state().sequence == 1)
        await client.close()
        await daemon.stop()
    }

    @Test func aGarbageLineFailsTheCallsAndTheNextCallReconnects() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("reload") { _ in .raw("this is not json") }
        let error = await #expect(throws: SesameClientError.self) { _ = try await client.reload() }
        guard case .protocolError? = error else {
            Issue.record("expected protocolError, got \(String(describing: error))")
            return
        }
        #expect(try await client.state().status == .anonymous)
        #expect(await daemon.requests("hello").count == 2)
        await client.close()
        await daemon.stop()
    }

    @Test func aLineLongerThanOneMebibyteIsAProtocolError() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        let huge = String(repeating: "x", count: ProtocolLimits.maximumResponseLineBytes + 8192)
        await daemon.script("reload") { _ in .raw("{\"jsonrpc\":\"2.0\",\"id\":2,\"result\":\"\(huge)\"}") }
        let error = await #expect(throws: SesameClientError.self) { _ = try await client.reload() }
        guard case .protocolError? = error else {
            Issue.record("expected protocolError, got \(String(describing: error))")
            return
        }
        #expect(try await client.state().sequence == 1)
        await client.close()
        await daemon.stop()
    }

    @Test func aClosedConnectionFailsThePendingCall() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("deleteAccount") { _ in .close }
        await #expect(throws: SesameClientError.connectionClosed) { _ = try await client.deleteAccount() }
        await client.close()
        await daemon.stop()
    }

    @Test func anErrorWithNullIdFailsEveryPendingCall() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        await daemon.script("reload") { _ in
            .raw(LocalAPIMessage.failure(id: .null, error: .tooManyConnections).json.jsonString)
        }
        let error = await #expect(throws: SesameClientError.self) { _ = try await client.reload() }
        #expect(error?.reason == "too-many-connections")
        await client.close()
        await daemon.stop()
    }

    @Test func callsAfterCloseFail() async throws {
        let (daemon, client) = try await makeDaemonAndClient()
        _ = try await client.state()
        await client.close()
        await #expect(throws: SesameClientError.connectionClosed) { _ = try await client.state() }
        await client.close()
        await daemon.stop()
    }
}
