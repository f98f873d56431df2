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

    /// Tries each command; true once one started and did not fail within `patience` (a
    /// browser that keeps running has opened the page; xdg-open exits 0 once it handed it on).
    func open(_ url: String, patience: Duration = .seconds(5)) async -> Bool {
        for command in commands(for: url) where await Self.run(command, patience: patience) {
            return true
        }
        return false
    }

    private static func run(_ command: [String], patience: Duration) async -> Bool {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = command
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let exited = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { finished in
            exited.continuation.yield(finished.terminationStatus)
            exited.continuation.finish()
        }
        do { try process.run() } catch { return false }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await status in exited.stream { return status == 0 }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: patience)
                return true
            }
            defer { group.cancelAll() }
            return await group.next() ?? false
        }
    }
}
