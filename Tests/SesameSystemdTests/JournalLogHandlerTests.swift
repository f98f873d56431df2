import Foundation
import Logging
import Testing

@testable import SesameSystemd

@Suite struct JournalLogHandlerTests {
    @Test func fieldNamesAreEscaped() {
        #expect(JournalFieldName.escaping("request.id", prefix: "SESAME_") == "SESAME_REQUEST_ID")
        #expect(JournalFieldName.escaping("keyring.path", prefix: "SESAME_") == "SESAME_KEYRING_PATH")
        #expect(JournalFieldName.escaping("_private", prefix: "SESAME_") == "SESAME__PRIVATE")
        #expect(JournalFieldName.escaping("peer-uid 2", prefix: "SESAME_") == "SESAME_PEER_UID_2")
        #expect(JournalFieldName.escaping("ünï", prefix: "SESAME_") == "SESAME___N__")
        #expect(JournalFieldName.escaping("x", prefix: "") == "X")
        #expect(JournalFieldName.escaping("_x", prefix: "") == "X_X")
        #expect(JournalFieldName.escaping("9lives", prefix: "") == "X9LIVES")
        #expect(JournalFieldName.escaping("", prefix: "") == "X")
        let long = JournalFieldName.escaping(String(repeating: "k", count: 100), prefix: "SESAME_")
        #expect(long.count == 64)
        for name in [long, JournalFieldName.escaping("a.b-c/d", prefix: "sesame.")] {
            #expect(name.allSatisfy { $0.isASCII && ($0.isUppercase || $0.isNumber || $0 == "_") })
            #expect(!name.hasPrefix("_"))
        }
    }

    @Test func prioritiesFollowSyslog() {
        #expect(SyslogPriority(.trace).rawValue == 7)
        #expect(SyslogPriority(.debug).rawValue == 7)
        #expect(SyslogPriority(.info).rawValue == 6)
        #expect(SyslogPriority(.notice).rawValue == 5)
        #expect(SyslogPriority(.warning).rawValue == 4)
        #expect(SyslogPriority(.error).rawValue == 3)
        #expect(SyslogPriority(.critical).rawValue == 2)
    }

    @Test func standardErrorLines() {
        #expect(StandardErrorLine.format(level: .info, message: "keyring opened", metadata: [:]) == "<6>keyring opened")
        #expect(
            StandardErrorLine.format(
                level: .warning, message: "refresh failed",
                metadata: ["b": "2", "a.key": "plain", "reason": "HTTP 503 \"busy\"", "empty": ""])
                == #"<4>refresh failed a.key=plain b=2 empty="" reason="HTTP 503 \"busy\"""#)
        #expect(
            StandardErrorLine.format(level: .error, message: "two\nlines", metadata: ["v": "a\nb"])
                == #"<3>two\nlines v="a\nb""#)
        #expect(
            StandardErrorLine.format(level: .debug, message: "m", metadata: ["list": ["x", "y"], "k y": "v"])
                == #"<7>m k_y=v list="[x, y]""#)
        #expect(StandardErrorLine.format(level: .critical, message: "m", metadata: ["c": "\u{1}"]) == #"<2>m c="\x01""#)
    }

    @Test func journalEntryFields() {
        let entry = JournalEntry(
            level: .notice, message: "signed in", metadata: ["session.uid": "u1", "peer.pid": .stringConvertible(42)],
            identifier: "sesamed", label: "sesame.service", fieldPrefix: "SESAME_", file: "F.swift", function: "f()",
            line: 7)
        let fields = entry.fields.map { "\($0.name)=\($0.value)" }
        #expect(
            fields == [
                "MESSAGE=signed in", "PRIORITY=5", "SYSLOG_IDENTIFIER=sesamed", "CODE_FILE=F.swift", "CODE_LINE=7",
                "CODE_FUNC=f()", "SESAME_LOGGER=sesame.service", "SESAME_PEER_PID=42", "SESAME_SESSION_UID=u1",
            ])
    }

    @Test func journalOnlyWhenJournalStreamNamesStandardError() {
        let stderr = LogSink.FileIdentity(device: 8, inode: 1234)
        // systemd connected stderr to journald: the native protocol, or prefixed lines without its socket.
        #expect(LogSink.choose(journalStream: "8:1234", standardError: stderr, journalSocketExists: true) == .journal)
        #expect(
            LogSink.choose(journalStream: "8:1234", standardError: stderr, journalSocketExists: false) == .journalStream
        )
        // Inherited by a child whose stderr is a terminal or a pipe (make run): a person reads it.
        #expect(
            LogSink.choose(journalStream: "8:999", standardError: stderr, journalSocketExists: true) == .standardError)
        #expect(
            LogSink.choose(journalStream: "9:1234", standardError: stderr, journalSocketExists: true) == .standardError)
        // No variable: journald's socket existing (any Debian desktop) is not a reason.
        #expect(LogSink.choose(journalStream: nil, standardError: stderr, journalSocketExists: true) == .standardError)
        #expect(
            LogSink.choose(journalStream: "8:1234", standardError: nil, journalSocketExists: true) == .standardError)
        for malformed in ["", "8", "8:1234:5", "x:1234", "8:-1", " 8:1234"] {
            #expect(
                LogSink.choose(journalStream: malformed, standardError: stderr, journalSocketExists: true)
                    == .standardError)
        }
    }

    @Test func fileIdentityOfADescriptorIsWhatJournalStreamNames() throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { for fd in fds { close(fd) } }
        var info = stat()
        #expect(fstat(fds[1], &info) == 0)
        let identity = try #require(LogSink.FileIdentity.of(descriptor: fds[1]))
        #expect(LogSink.FileIdentity(journalStream: "\(info.st_dev):\(info.st_ino)") == identity)
        #expect(LogSink.FileIdentity.of(descriptor: -1) == nil)
    }

    @Test func linesForAPersonHaveNoPriorityPrefix() {
        #expect(
            StandardErrorLine.formatForPerson(
                level: .info, message: "sesamed is ready", metadata: ["socket": "/run/s.sock", "backend": "x y"],
                identifier: "sesamed") == #"sesamed: sesamed is ready backend="x y" socket=/run/s.sock"#)
        #expect(
            StandardErrorLine.formatForPerson(
                level: .warning, message: "Cannot reach it", metadata: ["error": "refused"], identifier: "sesamed")
                == "sesamed: warning: Cannot reach it error=refused")
        #expect(
            StandardErrorLine.formatForPerson(level: .notice, message: "two\nlines", metadata: [:], identifier: "s")
                == #"s: two\nlines"#)
        #expect(
            StandardErrorLine.formatForPerson(level: .debug, message: "m", metadata: [:], identifier: "s")
                == "s: debug: m")
    }

    @Test func handlerHasValueSemantics() {
        var first = JournalLogHandler(label: "a", identifier: "sesamed", sink: .standardError)
        first[metadataKey: "k"] = "1"
        var second = first
        second.logLevel = .debug
        second[metadataKey: "k"] = "2"
        #expect(first.logLevel == .info)
        #expect(first[metadataKey: "k"] == "1")
        #expect(second[metadataKey: "k"] == "2")
    }

    @Test func metadataMergesHandlerProviderAndCall() {
        var handler = JournalLogHandler(
            label: "a", identifier: "sesamed", sink: .standardError,
            metadataProvider: Logger.MetadataProvider { ["from": "provider", "p": "1"] })
        handler.metadata = ["from": "handler", "h": "1"]
        let event = LogEvent(
            level: .info, message: "m", metadata: ["from": "call"], source: nil, file: "f", function: "g", line: 1)
        #expect(handler.mergedMetadata(event) == ["from": "call", "h": "1", "p": "1"])
    }

    @Test func factoryMakesHandlersWithTheDetectedSink() {
        // This process's stderr is not the stream the variable names, so a person reads it.
        let factory = JournalLogHandler.factory(
            identifier: "sesamed", environment: ["JOURNAL_STREAM": "1:2"], logLevel: .debug)
        let handler = factory("sesame.test", nil)
        let journal = handler as? JournalLogHandler
        #expect(journal?.sink == .standardError)
        #expect(journal?.label == "sesame.test")
        #expect(journal?.logLevel == .debug)
    }
}
