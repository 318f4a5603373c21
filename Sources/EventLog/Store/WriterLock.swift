import Foundation
import Synchronization

/// The one-writer rule: a writable store holds `<log>/writer.lock` for as long as it is open.
///
/// The append writer keeps the head position in memory, so a second writer on the same log would
/// make the first one's next append collide with positions it never saw. Two mechanisms make the
/// rule, because no single one does it right:
/// - across processes, a POSIX record lock (`lockf`). The kernel drops it when its holder exits,
///   also on `kill -9`, so a crash never leaves a stale lock. Unlike `flock`, it is never shared
///   with a child process: a `flock` travels with the descriptor into a child that is between
///   `fork` and `exec`, so closing the store while another thread spawns a process kept the lock
///   held for a moment and a prompt reopen was refused.
/// - within this process, a set of held lock files. Record locks belong to the process, so a second
///   store here would be granted the lock it already holds; and closing any descriptor of the file
///   drops the process's lock, so the file is opened only by the store that is about to own it.
/// Readers never take it: they may share the log with its writer.
final class WriterLock: @unchecked Sendable {
    /// Canonical paths of the lock files this process holds; guarded so check-and-take is atomic.
    private static let held = Mutex<Set<String>>([])

    private let file: String
    private var descriptor: Int32

    /// Takes the lock for the log directory `path`; `.writerActive` when another open store holds it.
    init(directory path: String) throws(EventLogError) {
        guard let canonical = realpath(path, nil) else {
            throw .invalidArgument(field: "dataDirectory", reason: "cannot resolve \(path): errno \(errno)")
        }
        file = (String(cString: canonical) as NSString).appendingPathComponent("writer.lock")
        free(canonical)
        let result: Result<Int32, EventLogError> = Self.held.withLock { [file] held in
            guard !held.contains(file) else { return .failure(.writerActive(path: path)) }
            let fd = open(file, O_RDWR | O_CREAT | O_CLOEXEC, 0o600)
            guard fd >= 0 else {
                return .failure(.invalidArgument(field: "dataDirectory", reason: "cannot open \(file): errno \(errno)"))
            }
            guard lockf(fd, F_TLOCK, 0) == 0 else {
                let code = errno
                Foundation.close(fd)  // we hold no lock on this file, so closing drops nothing of ours
                if code == EACCES || code == EAGAIN { return .failure(.writerActive(path: path)) }
                return .failure(.invalidArgument(field: "dataDirectory", reason: "cannot lock \(file): errno \(code)"))
            }
            held.insert(file)
            return .success(fd)
        }
        descriptor = try result.get()
    }

    /// Lets another store write. Calling it again does nothing.
    func release() {
        Self.held.withLock { held in
            guard descriptor >= 0 else { return }
            Foundation.close(descriptor)  // closing a descriptor of the file drops the record lock
            descriptor = -1
            held.remove(file)
        }
    }

    deinit {
        release()
    }
}
