import Foundation

/// The line on standard error while a sign-in flow waits for the person: on a terminal a
/// spinner and the time left, redrawn in place; elsewhere one line, once.
struct WaitingIndicator: Sendable {
    /// "Waiting for approval…"
    var label: String
    /// When the flow expires.
    var deadline: Date
    /// Standard error is a terminal.
    var animated: Bool

    static let frames = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]

    /// The spinner's line at `frame`, `now`: "⠙ Waiting for approval… 14:32 left (Ctrl-C cancels)".
    func line(frame: Int, now: Date) -> String {
        let left = max(0, Int(deadline.timeIntervalSince(now).rounded(.up)))
        let clock = String(format: "%d:%02d", left / 60, left % 60)
        return "\(Self.frames[frame % Self.frames.count]) \(label) \(clock) left (Ctrl-C cancels)"
    }

    /// Shows the indicator until the returned task is cancelled; the spinner's line is then erased.
    func start() -> Task<Void, Never> {
        guard animated else {
            Self.write(label + "\n")
            return Task {}
        }
        return Task {
            var frame = 0
            while !Task.isCancelled {
                Self.write("\r\u{1B}[2K" + line(frame: frame, now: Date()))
                frame += 1
                try? await Task.sleep(for: .milliseconds(120))
            }
            Self.write("\r\u{1B}[2K")
        }
    }

    /// Stops the indicator and waits until its line is erased, before the outcome is printed.
    static func stop(_ task: Task<Void, Never>) async {
        task.cancel()
        await task.value
    }

    private static func write(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }
}
