import Logging
import SesameService

extension SesameDaemon {
    /// `provisioning.token_file`, read once at start: the token, or nil with a warning naming
    /// the path when the file cannot be used (an empty file is not worth a warning). The token
    /// itself is never logged.
    /// - Throws: exit 78 with a message naming the path and what to do, when the file is not
    ///   what a secret should be (``ProvisioningToken/refused(message:)``).
    static func provisioningToken(_ configuration: DaemonConfiguration, logger: Logger) throws -> String? {
        switch ProvisioningToken.read(configuration.provisioningToken) {
        case .notConfigured:
            return nil
        case .token(let token):
            return token
        case .empty(let path):
            logger.info("provisioning.token_file \(path) is empty: nothing to provision")
            return nil
        case .unusable(let warning):
            logger.warning("\(warning)")
            return nil
        case .refused(let message):
            throw fail(message, status: 78)
        }
    }

    /// Signs the machine in with the provisioning token, in the background so that readiness
    /// does not wait for the backend. The service decides whether it applies (only a guest, or
    /// nobody, is replaced), retries while the backend cannot be reached, and logs the outcome
    /// (never the token); a refused token leaves the session as it was.
    static func provision(_ token: String, service: SessionService, logger: Logger) async {
        _ = await service.signIn.provision(customToken: token)
    }
}
