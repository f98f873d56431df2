/// Why a file or directory the keyring relies on is not used.
///
/// `unsafe` is the administrator's to fix (a link, a FIFO, a wrong owner or mode: exit 78);
/// `unreadable` is a file that is there but cannot be what it claims (too large, a read
/// error: exit 65, like any unreadable keyring). Each message names the path and says what to
/// run or do.
public enum FileRefusal: Error, Sendable, Equatable {
    case unsafe(String)
    case unreadable(String)
}
