/// Waits, on real time and bounded, until `condition` holds: the one poll every test target
/// uses for what it cannot await as an event (a process's output, a file, another process's
/// state). A condition that throws has not held yet; the timeout says what was awaited and the
/// last error.
/// - Throws: ``HarnessError`` when `timeout` passes first.
public func eventually(
    _ what: String = "a condition holds", timeout: Duration = .seconds(20), _ condition: () async throws -> Bool
) async throws {
    let deadline = ContinuousClock.now + timeout
    var lastError: (any Error)?
    while true {
        do {
            if try await condition() { return }
        } catch {
            lastError = error
        }
        guard ContinuousClock.now < deadline else { break }
        try await Task.sleep(for: .milliseconds(10))
    }
    throw HarnessError("timed out waiting until \(what)" + (lastError.map { " (last error: \($0))" } ?? ""))
}

/// Why a test harness gave up: a timeout, a process that did not start, a refused connection.
public struct HarnessError: Error, CustomStringConvertible {
    public var description: String
    public init(_ description: String) { self.description = description }
}
