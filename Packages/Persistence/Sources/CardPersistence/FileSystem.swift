#if canImport(Glibc)
    import Glibc
#endif

/// The file-system calls the store makes, as a seam: `PosixFileSystem` makes the real calls, and tests wrap it to
/// inject errors (ENOSPC, EIO, EACCES, EROFS, …) or short writes at any step.
///
/// Every call throws `Errno` with the C error code; the store adds the operation and the path. Calls mirror
/// their POSIX namesakes and do not retry (`write` may be short, and may fail with EINTR: the caller loops).
public protocol FileSystem: Sendable {
    /// `open(2)`; returns a descriptor.
    func open(_ path: String, flags: Int32, mode: UInt32) throws(Errno) -> Int32
    /// `close(2)`; errors are ignored (the data was fsynced before, where it matters).
    func close(_ descriptor: Int32)
    /// `read(2)`: up to `buffer.count` bytes; 0 at the end of the file.
    func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int
    /// `write(2)`: may write fewer bytes than given.
    func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) throws(Errno) -> Int
    /// `fsync(2)` of a file.
    func fsync(_ descriptor: Int32) throws(Errno)
    /// `fchmod(2)`.
    func fchmod(_ descriptor: Int32, mode: UInt32) throws(Errno)
    /// `flock(2)`: an exclusive lock, waiting for it when `wait` is true; returns false when it would block.
    func lockExclusive(_ descriptor: Int32, wait: Bool) throws(Errno) -> Bool
    /// `lstat(2)`: nil when nothing is at `path`.
    func status(_ path: String) throws(Errno) -> FileStatus?
    /// `link(2)`: a second name for an existing file.
    func link(_ existing: String, _ new: String) throws(Errno)
    /// `rename(2)`: atomically replaces `new`.
    func rename(_ old: String, _ new: String) throws(Errno)
    /// `unlink(2)`.
    func unlink(_ path: String) throws(Errno)
    /// `mkdir(2)`.
    func makeDirectory(_ path: String, mode: UInt32) throws(Errno)
    /// The names in a directory, without `.` and `..`.
    func contentsOfDirectory(_ path: String) throws(Errno) -> [String]
    /// Opens a directory and `fsync(2)`s it, making renames and links in it durable.
    func syncDirectory(_ path: String) throws(Errno)
}

/// What `lstat` tells about a path.
public struct FileStatus: Sendable, Hashable {
    /// The type of file a path names (`lstat` does not follow symbolic links).
    public enum Kind: Sendable, Hashable {
        /// A regular file.
        case regular
        /// A directory.
        case directory
        /// A symbolic link (not followed).
        case symbolicLink
        /// Anything else: a device, a FIFO, a socket.
        case other
    }

    /// The type of file.
    public var kind: Kind
    /// The permission bits (`st_mode & 0o7777`).
    public var permissions: UInt32
    /// The size in bytes (`st_size`).
    public var size: Int
    /// Device, inode and modification time in nanoseconds: together with the size they tell whether a file is
    /// still the one seen before (a rename puts a new inode in place).
    public var device: UInt64
    /// The inode number (`st_ino`).
    public var inode: UInt64
    /// The modification time, in nanoseconds since the Unix epoch (`st_mtim`).
    public var modificationNanoseconds: Int64

    /// A status; the identity fields default to 0 for file systems (test doubles) that do not track them.
    public init(
        kind: Kind, permissions: UInt32, size: Int, device: UInt64 = 0, inode: UInt64 = 0,
        modificationNanoseconds: Int64 = 0
    ) {
        self.kind = kind
        self.permissions = permissions
        self.size = size
        self.device = device
        self.inode = inode
        self.modificationNanoseconds = modificationNanoseconds
    }
}

/// A C error code from a file-system call.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `errno` value (`ENOENT`, `EACCES`, …).
    public var code: Int32

    /// The error with this `errno` value.
    public init(_ code: Int32) {
        self.code = code
    }

    /// `strerror(3)`'s text.
    public var description: String { String(cString: strerror(code)) }
}
