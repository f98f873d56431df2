extension AuthEndpoints {
    /// An Identity Toolkit operation of a feature this emulator does not have, and the 400
    /// Identity Toolkit answers for it in a project where that feature is turned off.
    struct DisabledFeature: Sendable {
        /// The v1 name, also the call counter's name.
        let name: String
        let paths: [String]
        let message: String

        init(_ name: String, v2 v2Path: String? = nil, _ message: String) {
            self.name = name
            self.paths =
                [IdentityToolkitOperation.v1 + name, IdentityToolkitOperation.v1Project + name]
                + (v2Path.map { ["/identitytoolkit.googleapis.com/v2/" + $0] } ?? [])
            self.message = message
        }
    }

    static let phoneProviderOff = "OPERATION_NOT_ALLOWED"
    static let multiFactorOff = "OPERATION_NOT_ALLOWED : SMS based MFA not enabled."
    static let identityProviderOff = "OPERATION_NOT_ALLOWED : The identity provider configuration is not found."

    /// Every operation the emulator does not serve (docs/emulator.md lists them): the phone
    /// provider, SMS multi-factor, Game Center and Apple token revocation are disabled
    /// providers; SAML has no configuration.
    static let disabledFeatures: [DisabledFeature] = [
        DisabledFeature("accounts:sendVerificationCode", phoneProviderOff),
        DisabledFeature("accounts:signInWithPhoneNumber", phoneProviderOff),
        DisabledFeature("accounts:verifyIosClient", phoneProviderOff),
        // TOTP needs no `mfaSignIn:start` (that step sends an SMS): the other MFA operations are
        // served (``AuthEndpoints/secondFactorOperations``).
        DisabledFeature("accounts:mfaSignIn:start", v2: "accounts/mfaSignIn:start", multiFactorOff),
        DisabledFeature("accounts:signInWithGameCenter", identityProviderOff),
        DisabledFeature("accounts:revokeToken", identityProviderOff),
        DisabledFeature("accounts:issueSamlResponse", "CONFIGURATION_NOT_FOUND"),
    ]
}
