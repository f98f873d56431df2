import Foundation
import Synchronization

/// How many emulators (each with its daemons) the end-to-end tests run at once: six for
/// the tests, four more for the fault matrix.
///
/// Swift Testing starts every test of the run together. Unbounded, the fault matrix alone
/// would start 152 emulators and as many daemons in the same second; on CI's two cores every
/// other test's timeouts (client streams, process start-up) would then run out while they
/// start. A test that starts an emulator waits here for a slot; ``EmulatorProcess/stop()``
/// gives it back.
actor ProcessSlots {
    static let emulators = ProcessSlots(count: 6)
    /// The fault matrix's own slots, so that its 152 cases never queue the other tests
    /// behind them (a queued test's time limit runs while it waits).
    static let matrix = ProcessSlots(count: 4)

    private var free: Int
    private var waiting: [CheckedContinuation<Void, Never>] = []

    init(count: Int) { free = count }

    func acquire() async {
        if free > 0 {
            free -= 1
            return
        }
        await withCheckedContinuation { waiting.append($0) }
    }

    func release() {
        if waiting.isEmpty {
            free += 1
        } else {
            waiting.removeFirst().resume()
        }
    }
}

/// One slot of ``ProcessSlots``, given back once however often ``giveBack()`` is called.
final class ProcessSlot: Sendable {
    private let returned = Atomic(false)
    private let slots: ProcessSlots

    init(of slots: ProcessSlots) { self.slots = slots }

    func giveBack() async {
        let first = !returned.exchange(true, ordering: .acquiringAndReleasing)
        if first { await slots.release() }
    }
}
