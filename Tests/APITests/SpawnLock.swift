import Foundation

/// Starts child processes one at a time across the whole test process. Foundation's
/// `Process.run()` on Linux is not safe to call from several threads at once: with the suites
/// running in parallel, one crashed copying memory inside it (CI, two cores, a dozen suites
/// starting servers and CLIs). An `flock` on one file serializes the launches of every test
/// module in the process (each module has its own copy of this type; the lock is the file).
enum SpawnLock {
    static let path = NSTemporaryDirectory() + "logbook-tests-spawn.lock"

    /// `process.run()`, holding the lock.
    static func run(_ process: Process) throws {
        let fd = open(path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return try process.run() }
        defer { close(fd) }
        while flock(fd, LOCK_EX) != 0, errno == EINTR {}
        defer { flock(fd, LOCK_UN) }
        try process.run()
    }

    /// `run(process)`, then waits for its exit without holding a thread: a blocking
    /// `waitUntilExit()` takes one of the cooperative pool's two threads here, and two
    /// tests waiting on slow tools at once stalled every other test in the process.
    static func runToExit(_ process: Process) async throws {
        let (exited, exit) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in exit.finish() }
        try run(process)
        for await _ in exited {}
    }
}
