import Foundation

/// Opens a URL in the person's browser the way xdg-open does: each command of `$BROWSER`
/// (colon-separated; `%s` is replaced by the URL, else the URL is the last argument) until one
/// starts, else `xdg-open URL`.
struct BrowserLauncher: Sendable {
    var environment: [String: String]

    /// The command lines to try, in order, for `url`.
    func commands(for url: String) -> [[String]] {
        var commands: [[String]] = []
        for entry in (environment["BROWSER"] ?? "").split(separator: ":") {
            var words = entry.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
            guard !words.isEmpty else { continue }
            if words.contains(where: { $0.contains("%s") }) {
                words = words.map { $0.replacingOccurrences(of: "%s", with: url) }
            } else {
                words.append(url)
            }
            commands.append(words)
        }
        commands.append(["xdg-open", url])
        return commands
    }

    /// What the terminal says once `open` returned true (and only then: with no browser, the
    /// person is given the URL instead).
    static func openedMessage(providerId: String) -> String {
        "opened the \(providerId) sign-in page in your browser"
    }

    /// Tries each command; true once one started and did not fail within `patience` (a
    /// browser that keeps running has opened the page; xdg-open exits 0 once it handed it on).
    func open(_ url: String, patience: Duration = .seconds(5)) async -> Bool {
        for command in commands(for: url) where await Self.run(command, patience: patience) {
            return true
        }
        return false
    }

    /// Starts `command` (no signal blocked, default actions: `ChildSignals`) and watches it
    /// for `patience`: true when it is still running then, or exited 0 before.
    private static func run(_ command: [String], patience: Duration) async -> Bool {
        guard let pid = ChildSignals.spawn(command) else { return false }
        let deadline = ContinuousClock.now + patience
        while ContinuousClock.now < deadline {
            if let succeeded = ChildSignals.exitedSuccessfully(pid) { return succeeded }
            // Cancelled: the sign-in ended meanwhile, so no other command is tried.
            do { try await Task.sleep(for: .milliseconds(50)) } catch { return true }
        }
        return true
    }
}
