import Foundation
import HTTPTypes
import Hummingbird

/// `/sesame/v1/faults` on one port: `GET` reports, `POST` (or `PATCH`/`PUT`) changes settings,
/// `DELETE` restores the defaults and clears the counters.
struct FaultRoutes<Endpoints: EmulatorEndpoints>: Sendable {
    let faults: FaultInjector
    let endpoints: Endpoints

    static var operations: [EmulatorOperation<Self>] {
        let path = FaultSettings.endpoint
        return [
            EmulatorOperation(.get, path) { routes, _, _ in await routes.faults.report() },
            EmulatorOperation(.delete, path) { routes, _, _ in
                await routes.faults.reset()
                await routes.endpoints.faultSettingsChanged(await routes.faults.settings)
                return await routes.faults.report()
            },
        ]
            + [HTTPRequest.Method.post, .patch, .put].map { method in
                EmulatorOperation(method, path) { routes, _, context in try await routes.change(context.body) }
            }
    }

    func add(to router: Router<EmulatorRequestContext>) { router.addRoutes(.of(Self.operations, state: self)) }

    private func change(_ body: [UInt8]) async throws(FaultSettingsError) -> FaultReport {
        let patch: FaultSettingsPatch
        do {
            patch = try JSONDecoder().decode(FaultSettingsPatch.self, from: Data(JSONCoding.objectIfBlank(body)))
        } catch let error as FaultSettingsError {
            throw error
        } catch {
            throw FaultSettingsError(message: "Invalid JSON: send an object of fault settings (see docs/emulator.md).")
        }
        let settings = await faults.apply(patch)
        await endpoints.faultSettingsChanged(settings)
        return await faults.report()
    }
}
