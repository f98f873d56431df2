import ArgumentParser

/// The identity-provider arguments shared by `sign-in-idp` and `link idp`: the provider id
/// and exactly one of the provider's ID token or access token.
struct FederatedTokenOptions: ParsableArguments {
    @Argument(help: ArgumentHelp("The provider id, e.g. google.com.", valueName: "provider"))
    var providerId: String

    @Option(name: .long, help: ArgumentHelp("The provider's ID token.", valueName: "token"))
    var idToken: String?

    @Option(name: .long, help: ArgumentHelp("The provider's access token.", valueName: "token"))
    var accessToken: String?

    func validate() throws {
        if (idToken == nil) == (accessToken == nil) {
            throw ValidationError("pass exactly one of --id-token and --access-token")
        }
    }
}
