import SesameCore

extension SessionService {
    /// Runs only the child tasks features spawn (a flow's poll and expiry, a challenge's
    /// expiry), without the maintenance loop, until ``shutdown(reason:)``: for tests that move
    /// a manual clock exactly when the flows wait. ``run()`` runs them with the loop.
    package func runChildTasks() async {
        await withDiscardingTaskGroup { group in
            for await child in maintenance.children { group.addTask(operation: child) }
            group.cancelAll()
        }
    }
}
