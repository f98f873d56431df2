/// What loading or saving the persisted session can fail with.
public struct SessionStoreError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// The stored session exists but cannot be read or decrypted (corrupt file, wrong or
        /// missing key, unknown format). Never to be taken for "signed out" or overwritten.
        case unreadable
        /// Another process holds the store's lock.
        case locked
        /// Reading or writing failed at the operating-system level.
        case io
        /// The store's directory or files are not safe to trust (a symbolic link, a FIFO, the
        /// wrong owner, writable by others, a key readable by others): the administrator must
        /// fix them; the message says how. Nothing is read, replaced or created.
        case unsafe
    }

    public var kind: Kind
    /// What went wrong and how to recover, naming the file; never contains secrets.
    public var message: String

    public init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    public var description: String { message }
}
