import ArgumentParser
import Foundation

/// A roff man page (section 1) built from the commands' own definitions and help screens, so
/// it never drifts from `--help`. Used by `sesamectl help-man`.
enum ManualPage {
    static func render(date: String = "") -> String {
        let root = SesameCtl.configuration
        var out: [String] = [
            ".TH SESAMECTL 1 \"\(date)\" \"sesame\" \"User Commands\"",
            ".SH NAME",
            "sesamectl \\- " + escape(root.abstract),
            ".SH SYNOPSIS",
            ".B sesamectl",
            ".I command",
            "[\\fB\\-\\-socket\\fR \\fIpath\\fR] [\\fB\\-\\-json\\fR] [\\fIarguments\\fR]",
            ".SH DESCRIPTION",
        ]
        out += paragraphs(root.discussion)
        out.append(".SH COMMANDS")
        for (path, command) in commands(under: SesameCtl.self, path: ["sesamectl"]) {
            out.append(".SS \"\(path.joined(separator: " "))\"")
            out.append(".nf")
            out += SesameCtl.helpMessage(for: command, columns: 78)
                .split(separator: "\n", omittingEmptySubsequences: false).map { escape(String($0)) }
            out.append(".fi")
        }
        out += [
            ".SH EXIT STATUS",
            ".TP", "0", "Success.",
            ".TP", "1", "An authentication or state error; the message says what to do next.",
            ".TP", "2", "Bad usage.",
            ".TP", "69", "sesamed cannot be reached; the message names the socket.",
            ".SH ENVIRONMENT",
            ".TP", ".B SESAME_SOCKET", "The daemon's socket, unless \\fB\\-\\-socket\\fR is given.",
            ".TP", ".B XDG_RUNTIME_DIR",
            "When \\fI$XDG_RUNTIME_DIR/sesame/sesamed.sock\\fR exists (a user instance), it is the default socket.",
            ".SH FILES",
            ".TP", ".I /run/sesame/sesamed.sock", "The system instance's socket, the last default.",
            ".TP", ".I /etc/sesame/sesamectl.toml, ~/.config/sesame/sesamectl.toml",
            "[credential] hosts: the git remotes \\fBsesamectl credential\\fR may hand the ID token to (none by default).",
            ".SH EXAMPLES",
            ".nf",
            "sesamectl status",
            "curl \\-H \"Authorization: Bearer $(sesamectl token)\" https://api.example.com/me",
            "sesamectl sign\\-up ann@example.com \\-\\-username Ann.Lee",
            "printf '%s\\en' \"$PASSWORD\" | sesamectl sign\\-in Ann.Lee \\-\\-password\\-stdin",
            "sesamectl watch \\-\\-json",
            "sesamectl \\-\\-socket ./run/sesamed.sock status   # options may also come first",
            "sesamectl complete\\-link \\-\\-code 123456 \\-\\-email ann@example.com   # Supabase's one\\-time code",
            "sesamectl delete\\-account \\-\\-yes   # in a script; on a terminal it asks first",
            "sesamectl exec \\-\\- sh \\-c 'curl \\-H \"Authorization: Bearer $SESAME_ID_TOKEN\" https://api.example.com/me'",
            "git config \\-\\-global credential.https://git.example.com.helper '!sesamectl credential'",
            ".fi",
            ".SH SEE ALSO",
            "\\fBsesamed\\fR(8), \\fBsystemctl\\fR(1)",
        ]
        return out.joined(separator: "\n") + "\n"
    }

    /// Every visible command below `command`, depth first, with its words.
    static func commands(
        under command: any ParsableCommand.Type, path: [String]
    ) -> [([String], any ParsableCommand.Type)] {
        command.configuration.subcommands.filter { $0.configuration.shouldDisplay }.flatMap { sub in
            let subPath = path + [sub.configuration.commandName ?? "\(sub)"]
            return [(subPath, sub)] + commands(under: sub, path: subPath)
        }
    }

    static func paragraphs(_ text: String) -> [String] {
        text.components(separatedBy: "\n\n").flatMap { [".PP", escape($0)] }
    }

    /// Text safe for roff: backslashes as `\e`, hyphens as `\-`, non-ASCII characters as
    /// `\[uXXXX]`, and lines that would start a request guarded.
    static func escape(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            var escaped = ""
            for scalar in line.unicodeScalars {
                switch scalar {
                case "\\": escaped += "\\e"
                case "-": escaped += "\\-"
                // roff input is ASCII: other characters by their code point (e.g. `…`).
                case _ where scalar.value > 0x7F:
                    let hex = String(scalar.value, radix: 16, uppercase: true)
                    escaped += "\\[u" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex + "]"
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return escaped.hasPrefix(".") || escaped.hasPrefix("'") ? "\\&" + escaped : escaped
        }.joined(separator: "\n")
    }
}
