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
        router.route(RouterPath(FaultSettings.endpoint), .get) { _ in .encoded(await faults.report()) }
        router.route(RouterPath(FaultSettings.endpoint), .delete) { _ in
            await faults.reset()
            await endpoints.faultSettingsChanged(await faults.settings)
            return .encoded(await faults.report())
        }
        for method in [HTTPRequest.Method.post, .patch, .put] {
            router.route(RouterPath(FaultSettings.endpoint), method) { request in await change(request.body) }
        }
    }

    private func change(_ body: [UInt8]) async -> EmulatorReply {
        let patch: FaultSettingsPatch
        let blank = body.allSatisfy { $0 == 0x20 || $0 == 0x0A || $0 == 0x0D || $0 == 0x09 }
        do {
            patch = try JSONDecoder().decode(FaultSettingsPatch.self, from: Data(blank ? Array("{}".utf8) : body))
        } catch let error as FaultSettingsError {
            return .json(["error": .string(error.message)], status: 400)
        } catch {
            return .json(
                ["error": "Invalid JSON: send an object of fault settings (see docs/emulator.md)."], status: 400)
        }
        let settings = await faults.apply(patch)
        await endpoints.faultSettingsChanged(settings)
        return .encoded(await faults.report())
    }
}
