/// What `sesamectl` does to its arguments before ArgumentParser reads them. Pure.
///
/// - The options every command takes (`--socket`, `--timeout`, `--json`) may come before the
///   command (`sesamectl --socket PATH status`, as `systemctl` and `git` allow); they are moved
///   after the command's words.
/// - A word in the command's place that names no command is bad usage with a suggestion
///   (`did you mean …?`), rather than ArgumentParser's "unexpected argument".
struct CommandLineArguments: Sendable, Equatable {
    /// The command names, and for a command with subcommands, theirs.
    var commands: [String: [String]]

    enum Outcome: Sendable, Equatable {
        /// Parse these arguments.
        case parse([String])
        /// `word` names no command under `path` (empty for the top level).
        case unknownCommand(word: String, path: [String], suggestion: String?)
    }

    /// Global options that take a value.
    static let valueOptions: Set<String> = ["--socket", "--timeout"]
    /// Global options without a value.
    static let flags: Set<String> = ["--json"]

    func resolve(_ arguments: [String]) -> Outcome {
        var leading: [String] = []
        var index = 0
        // The global options before the command.
        while index < arguments.count {
            let word = arguments[index]
            let name = String(word.prefix { $0 != "=" })
            if Self.flags.contains(word) || (Self.valueOptions.contains(name) && word.contains("=")) {
                leading.append(word)
                index += 1
            } else if Self.valueOptions.contains(word), index + 1 < arguments.count {
                leading += [word, arguments[index + 1]]
                index += 2
            } else {
                break
            }
        }
        // Anything else before the command (--help, --version, a typo'd option): as it is.
        guard index < arguments.count, !arguments[index].hasPrefix("-") else { return .parse(arguments) }
        let command = arguments[index]
        guard let subcommands = commands[command] else {
            return .unknownCommand(word: command, path: [], suggestion: Self.nearest(command, among: commands.keys))
        }
        var end = index + 1
        if !subcommands.isEmpty, end < arguments.count, !arguments[end].hasPrefix("-") {
            let sub = arguments[end]
            guard subcommands.contains(sub) else {
                return .unknownCommand(
                    word: sub, path: [command], suggestion: Self.nearest(sub, among: subcommands))
            }
            end += 1
        }
        if leading.isEmpty { return .parse(arguments) }
        return .parse(Array(arguments[index..<end]) + leading + Array(arguments[end...]))
    }

    /// The closest name to `word`: at most 2 edits away (1 for short words), or the only
    /// name `word` begins; nil when none is close.
    static func nearest(_ word: String, among names: some Sequence<String>) -> String? {
        let sorted = names.sorted()
        let limit = word.count <= 4 ? 1 : 2
        let scored = sorted.map { ($0, editDistance(word.lowercased(), $0)) }.filter { $0.1 <= limit }
        if let best = scored.min(by: { $0.1 < $1.1 }) { return best.0 }
        let prefixed = sorted.filter { $0.hasPrefix(word.lowercased()) }
        return !word.isEmpty && prefixed.count == 1 ? prefixed[0] : nil
    }

    /// Edit distance with adjacent transpositions (optimal string alignment): `lsit` is one
    /// edit from `list`, as people mistype.
    static func editDistance(_ a: String, _ b: String) -> Int {
        let a = Array(a), b = Array(b)
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var d = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { d[i][0] = i }
        for j in 0...b.count { d[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                d[i][j] = min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    d[i][j] = min(d[i][j], d[i - 2][j - 2] + 1)
                }
            }
        }
        return d[a.count][b.count]
    }

    /// The message for an unknown command.
    static func message(word: String, path: [String], suggestion: String?) -> String {
        let prefix = (["sesamectl"] + path).joined(separator: " ")
        let list = "`\(prefix) --help` lists the commands"
        guard let suggestion else { return "unknown command '\(word)': \(list)" }
        return "unknown command '\(word)': did you mean `\(prefix) \(suggestion)`? (\(list))"
    }
}
