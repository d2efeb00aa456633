#if canImport(Glibc)
    import Glibc
#endif

/// The real file system, through Glibc. Foundation is not used: its atomic write on Linux neither fsyncs the
/// directory nor keeps the file's mode, and it replaces symbolic links.
public struct PosixFileSystem: FileSystem {
    /// The real file system (stateless).
    public init() {}

    public func open(_ path: String, flags: Int32, mode: UInt32) throws(Errno) -> Int32 {
        while true {
            let descriptor = Glibc.open(path, flags, mode_t(mode))
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { throw Errno(errno) }
        }
    }

    public func close(_ descriptor: Int32) {
        _ = Glibc.close(descriptor)
    }

    public func read(_ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        let count = Glibc.read(descriptor, buffer.baseAddress, buffer.count)
        if count < 0 { throw Errno(errno) }
        return count
    }

    public func write(_ descriptor: Int32, from buffer: UnsafeRawBufferPointer) throws(Errno) -> Int {
        let count = Glibc.write(descriptor, buffer.baseAddress, buffer.count)
        if count < 0 { throw Errno(errno) }
        return count
    }

    public func fsync(_ descriptor: Int32) throws(Errno) {
        while Glibc.fsync(descriptor) != 0 {
            if errno != EINTR { throw Errno(errno) }
        }
    }

    public func fchmod(_ descriptor: Int32, mode: UInt32) throws(Errno) {
        if Glibc.fchmod(descriptor, mode_t(mode)) != 0 { throw Errno(errno) }
    }

    public func lockExclusive(_ descriptor: Int32, wait: Bool) throws(Errno) -> Bool {
        while systemFlock(descriptor, LOCK_EX | (wait ? 0 : LOCK_NB)) != 0 {
            if errno == EINTR { continue }
            if errno == EWOULDBLOCK && !wait { return false }
            throw Errno(errno)
        }
        return true
    }

    public func status(_ path: String) throws(Errno) -> FileStatus? {
        var info = stat()
        if lstat(path, &info) != 0 {
            if errno == ENOENT { return nil }
            throw Errno(errno)
        }
        let kind: FileStatus.Kind =
            switch info.st_mode & S_IFMT {
            case S_IFREG: .regular
            case S_IFDIR: .directory
            case S_IFLNK: .symbolicLink
            default: .other
            }
        return FileStatus(
            kind: kind, permissions: UInt32(info.st_mode & 0o7777), size: Int(info.st_size),
            device: UInt64(info.st_dev), inode: UInt64(info.st_ino),
            modificationNanoseconds: Int64(info.st_mtim.tv_sec) * 1_000_000_000 + Int64(info.st_mtim.tv_nsec))
    }

    public func link(_ existing: String, _ new: String) throws(Errno) {
        if Glibc.link(existing, new) != 0 { throw Errno(errno) }
    }

    public func rename(_ old: String, _ new: String) throws(Errno) {
        if Glibc.rename(old, new) != 0 { throw Errno(errno) }
    }

    public func unlink(_ path: String) throws(Errno) {
        if Glibc.unlink(path) != 0 { throw Errno(errno) }
    }

    public func makeDirectory(_ path: String, mode: UInt32) throws(Errno) {
        if mkdir(path, mode_t(mode)) != 0 { throw Errno(errno) }
    }

    public func contentsOfDirectory(_ path: String) throws(Errno) -> [String] {
        guard let directory = opendir(path) else { throw Errno(errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    public func syncDirectory(_ path: String) throws(Errno) {
        let descriptor = try open(path, flags: O_RDONLY | O_DIRECTORY | O_CLOEXEC, mode: 0)
        defer { close(descriptor) }
        try fsync(descriptor)
    }
}

/// glibc's `flock(2)`: Swift's Glibc module imports the `struct flock` of fcntl.h under the same name, which hides
/// the function.
@_silgen_name("flock")
private func systemFlock(_ descriptor: Int32, _ operation: Int32) -> Int32
