import Logging
import NIOConcurrencyHelpers
import ServiceLifecycle
import SesameCore
import SesameService
import SesameSocketServer
import SesameSystemd

/// Tells the session what happens to the machine: a resume from sleep (logind's
/// `PrepareForSleep(false)`, ``SleepWatch``), the calendar clock set (``CalendarWatch``) and,
/// while offline, a change of routes or addresses (rtnetlink, ``NetworkWatch``), coalesced over
/// ``coalescingWindow``. None costs a wake-up while nothing happens; without a system bus, a
/// timerfd or a netlink socket that watch is off, logged once at debug.
struct SleepAndNetwork: Service {
    /// Network changes closer together than this make one retry, after the last of them.
    static let coalescingWindow: Duration = .seconds(1)
    /// Changes that go on without a pause still make a retry this often.
    static let longestBurst: Duration = .seconds(5)

    let service: SessionService
    /// Shown the calendar's jumps along with the service.
    let server: LocalAPIServer
    /// `SESAME_LOGIND_BUS_ADDRESS`: a D-Bus address instead of the system bus, for tests.
    let logindBusAddress: String?
    let logger: Logger

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withDiscardingTaskGroup { group in
                group.addTask { await watchSleep() }
                group.addTask { await watchNetwork() }
                group.addTask { await watchCalendar() }
            }
        }
    }

    private func watchSleep() async {
        let logger = self.logger
        let signals = SleepWatch.signals(
            address: logindBusAddress, watching: { logger.debug("Watching logind for suspend and resume") }
        ) { reason in
            logger.debug("Not watching for suspend and resume (no logind)", metadata: ["reason": "\(reason)"])
        }
        for await signal in signals {
            switch signal {
            case .suspending:
                logger.info("The machine is going to sleep")
            case .resumed:
                logger.info("The machine woke up: checking the token")
                await service.resumed()
                server.calendarChanged()
                await service.calendarChanged()
            }
        }
    }

    private func watchCalendar() async {
        let logger = self.logger
        let changes = CalendarWatch.changes { reason in
            logger.debug("Not watching the calendar clock", metadata: ["reason": "\(reason)"])
        }
        for await _ in changes {
            logger.debug("The calendar clock was set: showing the token's expiry as it reads now")
            server.calendarChanged()
            await service.calendarChanged()
        }
    }

    private func watchNetwork() async {
        let logger = self.logger
        // Only an offline daemon has a retry to bring forward: while online a change is dropped
        // on the watch's thread and no code of the daemon runs (an idle daemon stays paged out).
        let offline = NIOLockedValueBox(false)
        await service.publish { event in
            offline.withLockedValue { $0 = event.state.connectivity != .online }
        }
        let changes = NetworkWatch.changes(
            coalescing: Self.coalescingWindow, longest: Self.longestBurst,
            wanted: { offline.withLockedValue { $0 } }
        ) { reason in
            logger.debug("Not watching the network for changes", metadata: ["reason": "\(reason)"])
        }
        for await _ in changes {
            logger.debug("The network changed: retrying what waits out a backoff")
            await service.networkChanged()
        }
    }
}
