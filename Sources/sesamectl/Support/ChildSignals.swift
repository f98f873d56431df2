#if canImport(Glibc)
import Glibc
#endif

/// What a command sesamectl starts gets: no signal blocked and every signal's default action.
///
/// sesamectl itself runs with signals blocked (libdispatch blocks the ones its signal sources
/// watch, SIGCHLD among them, in the threads that register them, and new threads inherit that)
/// and ignores SIGINT and SIGTERM while a sign-in flow runs (`SignalCancellation`). A blocked
/// mask and an ignored signal both survive exec: without this, `timeout` could not stop
/// `sesamectl exec -- CMD` and a shell's `wait` under it never returned.
enum ChildSignals {
    /// Before `execvp`: the calling thread's mask emptied and every signal's action the default.
    static func restoreBeforeExec() {
        for number in 1..<SIGSYS + 1 where number != SIGKILL && number != SIGSTOP {
            signal(number, SIG_DFL)
        }
        var empty = sigset_t()
        sigemptyset(&empty)
        pthread_sigmask(SIG_SETMASK, &empty, nil)
    }

    /// Starts `arguments` (the first looked up in PATH) with this environment, its standard
    /// streams on /dev/null, no signal blocked and every signal's default action. nil when it
    /// cannot start.
    static func spawn(_ arguments: [String]) -> pid_t? {
        guard !arguments.isEmpty else { return nil }
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, flags) in [(STDIN_FILENO, O_RDONLY), (STDOUT_FILENO, O_WRONLY), (STDERR_FILENO, O_WRONLY)] {
            posix_spawn_file_actions_addopen(&actions, descriptor, "/dev/null", flags, 0)
        }
        let argv = arguments.map { strdup($0) } + [nil]
        defer { for argument in argv { free(argument) } }
        var pid: pid_t = 0
        guard posix_spawnp(&pid, arguments[0], &actions, &attributes, argv, environ) == 0 else { return nil }
        return pid
    }

    /// How a started child ended, asked without waiting: nil while it runs, else whether it
    /// exited with status 0.
    static func exitedSuccessfully(_ pid: pid_t) -> Bool? {
        var status: Int32 = 0
        guard waitpid(pid, &status, WNOHANG) == pid else { return nil }
        // WIFEXITED and WEXITSTATUS, which are macros C does not export to Swift.
        return status & 0x7f == 0 && (status >> 8) & 0xff == 0
    }
}
