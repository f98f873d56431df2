import Foundation
import HTTPTypes
import Hummingbird
import SesameLocalAPI

/// `/sesame/v1/faults` on one port: `GET` reports, `POST` (or `PATCH`/`PUT`) changes settings,
/// `DELETE` restores the defaults and clears the counters.
struct FaultRoutes<Endpoints: EmulatorEndpoints>: Sendable {
    let faults: FaultInjector
    let endpoints: Endpoints

    func add(to router: Router<EmulatorRequestContext>) {
        let path = RouterPath(FaultSettings.endpoint)
        router.get(path) { _, _ in await faults.report() }
        router.delete(path) { _, _ in
            await faults.reset()
            await endpoints.faultSettingsChanged(await faults.settings)
            return await faults.report()
        }
        for method in [HTTPRequest.Method.post, .patch, .put] {
            router.on(path, method: method) { _, context in try await change(context.body) }
        }
    }

    private func change(_ body: [UInt8]) async throws(FaultSettingsError) -> FaultReport {
        let patch: FaultSettingsPatch
        let blank = body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        do {
            patch = try JSONDecoder().decode(FaultSettingsPatch.self, from: Data(blank ? Array("{}".utf8) : body))
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
