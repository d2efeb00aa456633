#if canImport(Glibc)
    import Glibc
#endif

/// Peak resident memory of one piece of work, in bytes above what was resident before it.
///
/// Linux only: the kernel's high-water mark `VmHWM` is reset by writing `5` to `/proc/self/clear_refs`
/// (proc(5), since Linux 4.0); `malloc_trim(0)` first hands freed heap back so the starting point is honest.
/// Returns nil where the reset is not permitted.
enum PeakMemory {
    static func measure<T>(_ body: () -> T) -> (result: T, peakBytes: Int?) {
        _ = mallocTrim(0)
        let reset = resetHighWaterMark()
        let before = statusField("VmRSS")
        let result = body()
        let peak = statusField("VmHWM")
        guard reset, let before, let peak else { return (result, nil) }
        return (result, max(0, peak - before))
    }

    private static func resetHighWaterMark() -> Bool {
        let fd = open("/proc/self/clear_refs", O_WRONLY)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        return write(fd, "5", 1) == 1
    }

    /// A `kB` field of `/proc/self/status`, in bytes.
    private static func statusField(_ name: String) -> Int? {
        let fd = open("/proc/self/status", O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: 8192)
        let count = read(fd, &buffer, buffer.count)
        guard count > 0 else { return nil }
        let text = String(decoding: buffer[0..<count], as: UTF8.self)
        for line in text.split(separator: "\n") where line.hasPrefix(name + ":") {
            let digits = line.dropFirst(name.count + 1).filter(\.isNumber)
            return Int(digits).map { $0 * 1024 }
        }
        return nil
    }
}

/// glibc's `malloc_trim(3)`, which the Glibc module does not export (it lives in <malloc.h>).
@_silgen_name("malloc_trim")
private func mallocTrim(_ pad: Int) -> Int32
