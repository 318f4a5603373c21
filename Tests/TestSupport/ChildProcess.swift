import Foundation
import Subprocess
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A child process the tests start (servers, `logbook-admin`, Python, Chromium), spawned and
/// reaped by swift-subprocess: in its own process group, with no signal blocked and every one at
/// its default, standard input from /dev/null, standard output and error as set, and no other
/// descriptor of the tests' (a listening socket, an LMDB lock, another child's pipe).
///
/// Not Foundation's `Process`: on Linux its `run()` reads `/proc/self/fd` with a 256-byte copy of
/// each directory entry's name, past the end of glibc's buffer when an entry sits at its tail
/// (swift-corelibs-foundation#5472); in this suite, which starts a few hundred children from a
/// busy process, that crashed the whole test run in `memcpy` about one CI run in three.
///
/// Subprocess scopes a child to a closure; this object holds that closure's run in a task of its
/// own, so a test can start a child, read its output, signal it and wait for it from anywhere.
/// Signals go by process id (`kill(2)`), as an `Execution` is valid only inside its closure.
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
        /// Runs Subprocess's closure; it ends once Subprocess has reaped the child.
        var supervisor: Task<Void, Never>?
    }

    private let state = Mutex(State())
    /// Set by `collectOutput`, before `run()`.
    private var collector: (standardError: Bool, sink: @Sendable (Data) -> Void)?

    public init() {}

    public var processIdentifier: Int32 { state.withLock { $0.pid } }
    public var isRunning: Bool { state.withLock { $0.running } }
    /// The exit status, or the signal that ended it (as `Process` reports them).
    public var terminationStatus: Int32 { state.withLock { $0.status } }
    public var terminationReason: TerminationReason { state.withLock { $0.reason } }

    /// Before `run()`: hands the child's standard output (and its standard error, when
    /// `standardError`) to `sink` as it arrives, until its end or the child's exit (then what is
    /// still in the pipe, and nothing a process it started writes later).
    public func collectOutput(standardError: Bool = false, into sink: @escaping @Sendable (Data) -> Void) {
        collector = (standardError, sink)
    }

    /// Waits until the collected output has ended: Subprocess reads it until the exit at the
    /// latest, and reaps the child only then.
    public func outputEnded() async {
        await exited()
    }

    /// Starts it and returns once it runs (or throws why it could not start); a task of its own
    /// collects its output and waits for its exit.
    public func run() async throws {
        guard let path = executableURL?.path else { throw SpawnFailed(path: "(no executable)", reason: "no executable set") }
        var options = PlatformOptions()
        options.processGroupID = 0
        let variables = environment.map { Dictionary(uniqueKeysWithValues: $0.map { (Environment.Key(rawValue: $0.key)!, $0.value) }) }
        let configuration = Configuration(
            executable: .path(.init(path)), arguments: Arguments(arguments), environment: variables.map { .custom($0) } ?? .inherit,
            platformOptions: options)
        try await withCheckedThrowingContinuation { (started: CheckedContinuation<Void, any Error>) in
            // Stored before `run()` returns, which waits for this closure and `started` both.
            let supervisor = Task { [self] in
                var startedRunning = false
                let onStart = { (pid: pid_t) in
                    startedRunning = true
                    self.state.withLock {
                        $0.pid = pid
                        $0.running = true
                    }
                    // The child has its copies; the tests keep only the reading ends of pipes.
                    for handle in [self.standardOutput, self.standardError] {
                        if let pipe = handle as? Pipe { try? pipe.fileHandleForWriting.close() }
                    }
                    started.resume()
                }
                do {
                    let status = switch collector {
                    case (true, let sink)?: try await collect(configuration, error: .combinedWithOutput, into: sink, onStart: onStart)
                    case (false, let sink)?:
                        try await collect(configuration, error: Self.output(standardError, or: .standardError), into: sink, onStart: onStart)
                    case nil:
                        try await Subprocess.run(
                            configuration, input: .none, output: Self.output(standardOutput, or: .standardOutput),
                            error: Self.output(standardError, or: .standardError)
                        ) { onStart($0.processIdentifier.value) }.terminationStatus
                    }
                    switch status {
                    case .exited(let code): ended(.exit, code)
                    case .signaled(let signal): ended(.uncaughtSignal, signal)
                    }
                } catch {
                    if startedRunning { ended(.exit, -1) } else { started.resume(throwing: SpawnFailed(path: path, reason: "\(error)")) }
                }
            }
            state.withLock { $0.supervisor = supervisor }
        }
    }

    /// Runs the child with its standard output read into `sink` until its end.
    private func collect(
        _ configuration: Configuration, error: some ErrorOutputProtocol, into sink: @Sendable (Data) -> Void, onStart: (pid_t) -> Void
    ) async throws -> TerminationStatus {
        try await Subprocess.run(configuration, input: .none, output: .sequence, error: error) { execution in
            onStart(execution.processIdentifier.value)
            // A failed read ends the output as its end does.
            do { for try await buffer in execution.standardOutput { sink(Data(buffer: buffer)) } } catch {}
        }.terminationStatus
    }

    /// Subprocess has reaped it.
    private func ended(_ reason: TerminationReason, _ status: Int32) {
        state.withLock { state in
            state.running = false
            state.reason = reason
            state.status = status
        }
    }

    public struct SpawnFailed: Error, CustomStringConvertible {
        public let path: String
        public let reason: String
        public var description: String { "cannot start \(path): \(reason)" }
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

    /// Waits for the exit without holding a thread; at once when it never started.
    public func exited() async {
        await state.withLock { $0.supervisor }?.value
    }

    /// `run()`, then `exited()`.
    public func runToExit() async throws {
        try await run()
        await exited()
    }

    /// Where a `FileHandle` or a `Pipe` writes; `inherited` for nil. `FileHandle.nullDevice` has
    /// no descriptor on Linux: /dev/null opened for the spawn, which Subprocess closes after it.
    private static func output(_ handle: Any?, or inherited: FileHandle) -> FileDescriptorOutput {
        let descriptor = switch handle {
        case let pipe as Pipe: pipe.fileHandleForWriting.fileDescriptor
        case let file as FileHandle: file.fileDescriptor
        default: inherited.fileDescriptor
        }
        guard descriptor < 0 else { return .fileDescriptor(.init(rawValue: descriptor), closeAfterSpawningProcess: false) }
        return .fileDescriptor(.init(rawValue: open("/dev/null", O_WRONLY | O_CLOEXEC)), closeAfterSpawningProcess: true)
    }
}
