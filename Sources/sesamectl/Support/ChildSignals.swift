import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// A program sesamectl runs starts as one started from a shell: no signal blocked and every
/// signal's default action. sesamectl's own threads are not like that (the Dispatch threads its
/// async code runs on block signals, and a sign-in ignores SIGINT and SIGTERM while it watches
/// them), and both the mask and ignored signals survive `exec` and `posix_spawn`: `timeout`
/// could not stop `sesamectl exec -- sleep 100`, and a shell's `wait` never saw its child end.
enum ChildSignals {
    /// Every signal a program may set an action for (not SIGKILL or SIGSTOP).
    private static var catchable: sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        for number in 1..<Int32(NSIG) where number != SIGKILL && number != SIGSTOP {
            sigaddset(&set, number)
        }
        return set
    }

    /// Before `execvp` from this thread: unblock every signal and restore the default actions.
    static func resetBeforeExec() {
        var empty = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, nil)
        for number in 1..<Int32(NSIG) where number != SIGKILL && number != SIGSTOP {
            signal(number, SIG_DFL)
        }
    }

    /// Starts `arguments` (the first found in `PATH`) with its standard streams on /dev/null,
    /// no signal blocked and default actions; its pid, or nil when it cannot start.
    static func spawn(_ arguments: [String]) -> pid_t? {
        guard let program = arguments.first else { return nil }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = catchable
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid = pid_t()
        guard posix_spawnp(&pid, program, &actions, &attributes, argv, environ) == 0 else { return nil }
        return pid
    }

    /// Waits for `pid` on a thread of its own (which reaps it whenever it ends); yields once:
    /// true when it exited with status 0. Iterating it ends when the task is cancelled.
    static func exit(of pid: pid_t) -> AsyncStream<Bool> {
        let (stream, continuation) = AsyncStream.makeStream(of: Bool.self)
        let thread = Thread {
            var status: Int32 = 0
            var waited = waitpid(pid, &status, 0)
            while waited == -1 && errno == EINTR { waited = waitpid(pid, &status, 0) }
            // WIFEXITED and WEXITSTATUS, which Swift does not import.
            continuation.yield(waited == pid && status & 0x7f == 0 && (status >> 8) & 0xff == 0)
            continuation.finish()
        }
        thread.start()
        return stream
    }
}
