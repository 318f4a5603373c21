import Foundation

/// The one-writer rule across processes: a writable store holds an exclusive `flock` on
/// `<log>/writer.lock` for as long as it is open.
///
/// The append writer keeps the head position in memory, so a second process appending to the
/// same log would make the first one's next append collide with positions it never saw. The
/// kernel drops the lock when its holder exits, also on `kill -9`, so a crash never leaves a
/// stale lock behind. Readers never take it: they may share the log with its writer.
final class WriterLock: @unchecked Sendable {
    private let lock = NSLock()
    private var descriptor: Int32

    /// Takes the lock for the log directory `path`; `.writerActive` when another open store holds it.
    init(directory path: String) throws(EventLogError) {
        let file = (path as NSString).appendingPathComponent("writer.lock")
        let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .invalidArgument(field: "dataDirectory", reason: "cannot open \(file): errno \(errno)") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            let code = errno
            Foundation.close(fd)
            if code == EWOULDBLOCK { throw .writerActive(path: path) }
            throw .invalidArgument(field: "dataDirectory", reason: "cannot lock \(file): errno \(code)")
        }
        descriptor = fd
    }

    /// Lets another store write. Calling it again does nothing.
    func release() {
        lock.lock()
        defer { lock.unlock() }
        guard descriptor >= 0 else { return }
        Foundation.close(descriptor)  // closing the descriptor drops the flock
        descriptor = -1
    }

    deinit {
        release()
    }
}
