import ArgumentParser
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads passwords: from the terminal without echo, or one line from standard input.
/// Never from an argument, so they stay out of the shell's history and `ps`.
enum PasswordReader {
    /// Reads a password.
    /// - Parameters:
    ///   - prompt: shown on the terminal.
    ///   - fromStandardInput: read the first line of standard input instead (`--password-stdin`).
    ///   - confirm: on a terminal, ask twice and compare (for new passwords).
    /// - Throws: `ValidationError` (exit status 2) when there is no terminal, the password is
    ///   empty, or the two entries differ.
    static func read(prompt: String, fromStandardInput: Bool, confirm: Bool = false) throws -> String {
        let password: String
        if fromStandardInput {
            guard let line = Swift.readLine(strippingNewline: true) else {
                throw ValidationError("--password-stdin: standard input is empty; pipe the password in")
            }
            password = line.hasSuffix("\r") ? String(line.dropLast()) : line
        } else {
            password = try readFromTerminal(prompt: prompt)
            if confirm, try readFromTerminal(prompt: "Repeat the password: ") != password {
                throw ValidationError("the two passwords differ: run the command again")
            }
        }
        guard !password.isEmpty else {
            throw ValidationError("the password is empty: type one, or pipe one in with --password-stdin")
        }
        return password
    }

    /// Whether this process has a terminal to ask on (/dev/tty opens).
    static var hasTerminal: Bool {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { return false }
        close(fd)
        return true
    }

    private static func readByte(_ fd: Int32, _ byte: inout UInt8) -> Bool {
        #if canImport(Glibc)
        Glibc.read(fd, &byte, 1) == 1
        #else
        Darwin.read(fd, &byte, 1) == 1
        #endif
    }

    /// Reads one line from /dev/tty with echo off (on for `echo`, as for one-time codes),
    /// restoring the terminal afterwards.
    /// - Parameter missing: the usage error when there is no terminal.
    static func readFromTerminal(
        prompt: String, echo: Bool = false,
        missing: String = "no terminal to read the password from: pass --password-stdin and pipe it in"
    ) throws -> String {
        let fd = open("/dev/tty", O_RDWR | O_NOCTTY)
        guard fd >= 0 else { throw ValidationError(missing) }
        defer { close(fd) }
        write(fd, prompt, prompt.utf8.count)
        var saved = termios()
        let hasAttributes = !echo && tcgetattr(fd, &saved) == 0
        if hasAttributes {
            var silent = saved
            silent.c_lflag &= ~tcflag_t(ECHO)
            silent.c_lflag |= tcflag_t(ECHONL)
            tcsetattr(fd, TCSAFLUSH, &silent)
        }
        defer {
            if hasAttributes {
                var restore = saved
                tcsetattr(fd, TCSAFLUSH, &restore)
            }
        }
        var bytes: [UInt8] = []
        var byte: UInt8 = 0
        while readByte(fd, &byte), byte != UInt8(ascii: "\n") {
            bytes.append(byte)
        }
        if bytes.last == UInt8(ascii: "\r") { bytes.removeLast() }
        return String(decoding: bytes, as: UTF8.self)
    }
}
