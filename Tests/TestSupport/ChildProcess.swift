import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child process the tests start (servers, `logbook-admin`, Python, Chromium), spawned with
/// `posix_spawn` directly.
///
/// Not Foundation's `Process`: on Linux its `run()` reads `/proc/self/fd` with a 256-byte copy of
/// each directory entry's name, past the end of glibc's buffer when an entry sits at its tail
/// (swift-corelibs-foundation#5472); in this suite, which starts a few hundred children from a
/// busy process, that crashed the whole test run in `memcpy` about one CI run in three.
///
/// The child gets its own process group (as `Process` gives it), standard output and error as
/// set, standard input inherited, and no other descriptor of the tests': every one from 3 up is
/// closed before it runs (a listening socket, an LMDB lock, another child's pipe).
///
/// Output a test reads as it arrives is collected by `collectOutput`, on a thread of its own, not
/// by a `FileHandle.readabilityHandler`: that handler's dispatch source outlived its descriptor
/// when the pipe was released right after the handler was cleared, and the whole test run
/// crashed in libdispatch's `_dispatch_event_loop_drain` (CI, 2026-11-28).
public final class ChildProcess: @unchecked Sendable {
    public typealias TerminationReason = Process.TerminationReason

    /// Set before `run()`.
    public var executableURL: URL?
    public var arguments: [String] = []
    /// The child's whole environment; nil for the tests' own.
    public var environment: [String: String]?
    /// A `FileHandle` or a `Pipe` (its writing end); nil inherits the tests'.
    public var standardOutput: Any?
    public var standardError: Any?

    private struct State {
        var pid: pid_t = 0
        var running = false
        var status: Int32 = 0
        var reason: TerminationReason = .exit
        var exited = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())
    private let exit = NSCondition()
    /// Set by `collectOutput`, before `run()`.
    private var collector: (pipe: Pipe, sink: @Sendable (Data) -> Void)?
    /// Whether the collected output reached its end, and who waits for that.
    private let outputEnd = Mutex<(ended: Bool, waiters: [CheckedContinuation<Void, Never>])>((false, []))

    public init() {}

    public var processIdentifier: Int32 { state.withLock { $0.pid } }
    public var isRunning: Bool { state.withLock { $0.running } }
    /// The exit status, or the signal that ended it (as `Process` reports them).
    public var terminationStatus: Int32 { state.withLock { $0.status } }
    public var terminationReason: TerminationReason { state.withLock { $0.reason } }

    public struct SpawnFailed: Error, CustomStringConvertible {
        public let path: String
        public let errno: Int32
        public var description: String { "cannot start \(path): \(String(cString: strerror(errno)))" }
    }

    /// Before `run()`: hands the child's standard output (and its standard error, when
    /// `standardError`) to `sink` as it arrives, from a thread that reads until the child and
    /// anything it started have closed it (`outputEnded()`).
    public func collectOutput(standardError: Bool = false, into sink: @escaping @Sendable (Data) -> Void) {
        let pipe = Pipe()
        standardOutput = pipe
        if standardError { self.standardError = pipe }
        collector = (pipe, sink)
    }

    /// Waits until the collected output has ended (after the child's exit, at the latest once
    /// whatever it started has exited too); at once when none is collected.
    public func outputEnded() async {
        await withCheckedContinuation { continuation in
            let ended = outputEnd.withLock { end -> Bool in
                if end.ended || collector == nil { return true }
                end.waiters.append(continuation)
                return false
            }
            if ended { continuation.resume() }
        }
    }

    /// Starts it; a thread of its own waits for its exit.
    public func run() throws {
        guard let path = executableURL?.path else { throw SpawnFailed(path: "(no executable)", errno: ENOENT) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (handle, target) in [(standardOutput, STDOUT_FILENO), (standardError, STDERR_FILENO)] {
            if let descriptor = Self.writingDescriptor(of: handle) { posix_spawn_file_actions_adddup2(&actions, descriptor, target) }
        }
        Self.closeFrom3(&actions)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // No signal blocked and every one at its default, as a service manager starts a
        // process. A child inherits both from the spawning thread and process (a dispatch
        // worker's mask, a signal the tests ignore); without this a plain `sleep` never ended on
        // SIGTERM (`ChildProcessTests`).
        var noSignals = sigset_t(), allSignals = sigset_t()
        sigemptyset(&noSignals)
        sigfillset(&allSignals)
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &allSignals)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        let argv = ([path] + arguments).map { strdup($0) } + [nil]
        let environment = self.environment ?? ProcessInfo.processInfo.environment
        let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            for pointer in argv { free(pointer) }
            for pointer in envp { free(pointer) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, path, &actions, &attributes, argv, envp)
        guard status == 0 else { throw SpawnFailed(path: path, errno: status) }
        // The child has its copies; the tests keep only the reading ends of pipes.
        for handle in [standardOutput, standardError] {
            if let pipe = handle as? Pipe { try? pipe.fileHandleForWriting.close() }
        }
        state.withLock {
            $0.pid = pid
            $0.running = true
        }
        Thread.detachNewThread { [self, pid] in reap(pid) }
        if let (pipe, sink) = collector { Thread.detachNewThread { [self] in collect(pipe, into: sink) } }
    }

    /// Reads `pipe` into `sink` until its end (every writer closed it) or an error.
    private func collect(_ pipe: Pipe, into sink: @Sendable (Data) -> Void) {
        let descriptor = pipe.fileHandleForReading.fileDescriptor
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                sink(Data(buffer[0..<count]))
            } else if count == 0 || errno != EINTR {
                break
            }
        }
        try? pipe.fileHandleForReading.close()
        let waiters = outputEnd.withLock { end in
            end.ended = true
            defer { end.waiters = [] }
            return end.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    /// Sends SIGTERM.
    public func terminate() {
        let pid = processIdentifier
        if pid > 0 { Glibc.kill(pid, SIGTERM) }
    }

    /// Sends SIGKILL if it is still running (a failed test's clean-up); whether it sent it.
    @discardableResult
    public func kill() -> Bool {
        let pid = processIdentifier
        guard pid > 0, isRunning else { return false }
        return Glibc.kill(pid, SIGKILL) == 0
    }

    /// Sends SIGTERM, as a service manager would, and waits for the exit without holding a
    /// thread of the cooperative pool; SIGKILL after `timeout`. Whether it ended on its own.
    public func terminate(killingAfter timeout: Duration) async -> Bool {
        terminate()
        let killer = Task { [self] () -> Bool in
            guard (try? await Task.sleep(for: timeout)) != nil else { return false }
            return kill()
        }
        await exited()
        killer.cancel()
        return await !killer.value
    }

    /// Blocks the calling thread until it has exited; prefer `exited()` on the cooperative pool.
    public func waitUntilExit() {
        exit.lock()
        defer { exit.unlock() }
        while !state.withLock({ $0.exited }) { exit.wait() }
    }

    /// Waits for the exit without holding a thread.
    public func exited() async {
        await withCheckedContinuation { continuation in
            let done = state.withLock { state -> Bool in
                if state.exited { return true }
                state.waiters.append(continuation)
                return false
            }
            if done { continuation.resume() }
        }
    }

    /// `run()`, then `exited()`.
    public func runToExit() async throws {
        try run()
        await exited()
    }

    private func reap(_ pid: pid_t) {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
        // The wait status: a signal in the low 7 bits, else the exit code above them.
        let signal = status & 0x7f
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.running = false
            state.exited = true
            state.reason = signal == 0 ? .exit : .uncaughtSignal
            state.status = signal == 0 ? (status >> 8) & 0xff : signal
            defer { state.waiters = [] }
            return state.waiters
        }
        exit.lock()
        exit.broadcast()
        exit.unlock()
        for waiter in waiters { waiter.resume() }
    }

    private static func writingDescriptor(of handle: Any?) -> Int32? {
        switch handle {
        case let pipe as Pipe: pipe.fileHandleForWriting.fileDescriptor
        case let file as FileHandle: file.fileDescriptor
        default: nil
        }
    }

    /// `posix_spawn_file_actions_addclosefrom_np(actions, 3)` (glibc 2.34), looked up at run
    /// time as the Glibc module does not declare it; without it, descriptors opened with
    /// close-on-exec (as Foundation and NIO open theirs) are still not inherited.
    private static func closeFrom3(_ actions: inout posix_spawn_file_actions_t) {
        typealias CloseFrom = @convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "posix_spawn_file_actions_addclosefrom_np") else { return }
        _ = unsafeBitCast(symbol, to: CloseFrom.self)(&actions, 3)
    }
}
