import ServiceLifecycle

/// The session's background work (``SessionService/run()``) as a ServiceLifecycle service: it
/// runs the maintenance loop on the service's injected clock until graceful shutdown cancels it.
/// Put it first in the ServiceGroup: it stops last, after the socket server told its clients.
public struct SessionMaintenance: Service {
    let service: SessionService

    public init(_ service: SessionService) {
        self.service = service
    }

    public func run() async throws {
        let service = self.service
        await cancelWhenGracefulShutdown {
            await service.run()
        }
        // Ends the event streams once everything else has stopped.
        await service.shutdown(reason: "stopping")
    }
}
