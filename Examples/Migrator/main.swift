// sesame-example-migrator: the smallest complete migrator for sesamed's merges.
//
// An app keeps its data in a local JSON store keyed by uid ({"<uid>": ["note 1", …]}). When a
// guest signs in to an existing account, sesamed records a merge from the guest's uid to the
// account's uid and waits (up to `merge.hold`) before deleting the guest account. This program
// moves the guest's records under the account's uid, durably (temporary file + rename), and
// only then calls `completeMerge`, so the guest is deleted after its data is safe.
//
// Run it continuously (it follows `merges` and handles each merge as it is recorded), or with
// `--once` to handle the merges pending now and exit (for cron jobs, tests and app start-up).

import Foundation
import SesameClient

#if canImport(Glibc)
import Glibc
#endif

let usage = """
    Usage: sesame-example-migrator --store FILE [--socket PATH] [--once]

    Moves a guest's records in a JSON store keyed by uid ({"<uid>": ["note", …]}) to the
    account it signed in to, then completes the merge in sesamed (which deletes the guest).

    Options:
      --store FILE    the JSON store (created empty when missing)
      --socket PATH   sesamed's socket (default: $SESAME_SOCKET, the user or the system instance)
      --once          handle the merges pending now, then exit (default: keep following)
      -h, --help      show this help

    It needs the manager role on sesamed (migrators complete merges).
    """

struct Options {
    var store: String
    var socket: String?
    var once = false
}

enum UsageError: Error { case message(String) }

func parseOptions(_ arguments: [String]) throws(UsageError) -> Options? {
    var store: String?
    var socket: String?
    var once = false
    var index = 0
    func value(after flag: String) throws(UsageError) -> String {
        index += 1
        guard index < arguments.count else { throw .message("\(flag) needs a value") }
        return arguments[index]
    }
    while index < arguments.count {
        let argument = arguments[index]
        switch argument {
        case "-h", "--help": return nil
        case "--store": store = try value(after: argument)
        case "--socket": socket = try value(after: argument)
        case "--once": once = true
        default: throw .message("unknown argument \(argument)")
        }
        index += 1
    }
    guard let store else { throw .message("--store FILE is required") }
    return Options(store: store, socket: socket, once: once)
}

/// The app's data: records by uid, in one JSON file.
struct NoteStore {
    let path: String

    func load() throws -> [String: [String]] {
        guard FileManager.default.fileExists(atPath: path) else { return [:] }
        let data = try Data(contentsOf: URL(fileURLWithPath: path))
        if data.isEmpty { return [:] }
        return try JSONDecoder().decode([String: [String]].self, from: data)
    }

    /// Writes the whole store durably: a temporary file beside it, flushed, then renamed over it.
    func save(_ records: [String: [String]]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        let data = try encoder.encode(records)
        let temporary = path + ".tmp-\(getpid())"
        guard FileManager.default.createFile(atPath: temporary, contents: data) else {
            throw UsageError.message("cannot write \(temporary)")
        }
        let handle = try FileHandle(forWritingAtPath: temporary).unwrap(temporary)
        try handle.synchronize()
        try handle.close()
        guard rename(temporary, path) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            throw UsageError.message("cannot rename \(temporary) to \(path): \(reason)")
        }
    }

    /// Moves every record of `fromUid` under `toUid` (after the account's own). Idempotent:
    /// once moved, a second run finds nothing left to move.
    /// - Returns: how many records moved.
    func move(from fromUid: String, to toUid: String) throws -> Int {
        var records = try load()
        guard let guest = records[fromUid] else { return 0 }
        records[toUid, default: []].append(contentsOf: guest)
        records[fromUid] = nil
        try save(records)
        return guest.count
    }
}

extension Optional {
    func unwrap(_ what: String) throws -> Wrapped {
        guard let self else { throw UsageError.message("cannot open \(what)") }
        return self
    }
}

/// Moves one merge's data, then completes the merge. A merge another migrator (or the daemon's
/// hold) completed meanwhile is not an error: the data has been moved either way.
func handle(_ merge: SesameMerge, store: NoteStore, client: SesameClient) async throws {
    let moved = try store.move(from: merge.fromUid, to: merge.toUid)
    print("merge \(merge.mergeId): moved \(moved) record(s) from \(merge.fromUid) to \(merge.toUid)")
    do {
        _ = try await client.completeMerge(mergeId: merge.mergeId)
        print("merge \(merge.mergeId): completed")
    } catch let error as SesameClientError where error.daemonError?.reason == "no-such-merge" {
        print("merge \(merge.mergeId): already completed elsewhere")
    }
}

func runMigrator() async -> Int32 {
    let options: Options
    do {
        guard let parsed = try parseOptions(Array(CommandLine.arguments.dropFirst())) else {
            print(usage)
            return 0
        }
        options = parsed
    } catch {
        if case .message(let text) = error {
            FileHandle.standardError.write(Data("sesame-example-migrator: \(text)\n\n\(usage)\n".utf8))
        }
        return 64
    }
    let client = SesameClient(socketPath: options.socket, clientName: "sesame-example-migrator")
    defer { Task { await client.close() } }
    let store = NoteStore(path: options.store)
    do {
        if options.once {
            // The merges pending now are in the state; no need to wait for the stream.
            for merge in try await client.state().pendingMerges {
                try await handle(merge, store: store, client: client)
            }
        } else {
            // Every pending merge once, right after subscribing, then each new one.
            for try await merge in client.merges {
                try await handle(merge, store: store, client: client)
            }
        }
        await client.close()
        return 0
    } catch {
        FileHandle.standardError.write(Data("sesame-example-migrator: \(error)\n".utf8))
        await client.close()
        return 1
    }
}

exit(await runMigrator())
