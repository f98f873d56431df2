import SesameCore
import SesameLocalAPI
import SesameService

/// Who sees what of an open sign-in flow (docs/protocol.md, "Who sees a flow's code").
///
/// A device flow's `userCode` (and `verificationUriComplete`, which holds it) lets whoever has
/// it approve the flow at the provider with their own identity, and so sign this machine in to
/// their account. Only managers see them: the person's own programs, which may start and cancel
/// flows anyway (the connection that started a flow is one, as the sign-in flow's start needs the role).
/// Readers and observers see that a flow is open, with those fields null. A browser flow's
/// `authorizationUrl` and `state` are in no published flow at all: the service keeps them out.
extension LocalAPIRole {
    /// Whether this role sees a device flow's code.
    var seesSignInCode: Bool { self >= .manager }
}

extension SignInPrompt {
    var carriesCode: Bool { userCode != nil || verificationUriComplete != nil }

    /// The prompt without the code: the flow is open, nothing more.
    var withoutCode: SignInPrompt {
        var prompt = self
        prompt.userCode = nil
        prompt.verificationUriComplete = nil
        return prompt
    }
}

extension SignInFlow {
    var carriesCode: Bool { userCode != nil || verificationUriComplete != nil || authorizationUrl != nil }

    /// The flow without its code (nor, should one ever be set, a browser flow's URL and `state`).
    var withoutCode: SignInFlow {
        var flow = self
        flow.userCode = nil
        flow.verificationUriComplete = nil
        flow.authorizationUrl = nil
        flow.state = nil
        return flow
    }

    /// The flow as `role` sees it.
    func visible(to role: LocalAPIRole) -> SignInFlow { role.seesSignInCode ? self : withoutCode }
}

extension AuthState {
    /// Whether a role below manager sees this state otherwise than a manager does.
    var carriesSignInCode: Bool { signInPrompt?.carriesCode == true }

    /// The state as `role` sees it.
    func visible(to role: LocalAPIRole) -> AuthState {
        guard !role.seesSignInCode, let prompt = signInPrompt, prompt.carriesCode else { return self }
        var state = self
        state.signInPrompt = prompt.withoutCode
        return state
    }
}

extension SessionEvent {
    /// Whether a role below manager gets another notification for this event than a manager.
    var carriesSignInCode: Bool {
        if state.carriesSignInCode { return true }
        if case .signInFlowChanged(let flow) = kind { return flow.carriesCode }
        return false
    }
}
