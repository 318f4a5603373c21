import CWriteback
import Dispatch
import Synchronization

/// Starts the kernel writing LMDB's unsynced pages to the device soon after each commit of the
/// write-ahead mode, on a thread of its own so the writer never waits for the device's queue.
/// Without it the pages of 1,024 commits sit in the page cache until the checkpoint's `fsync`
/// writes them at once, and the write-ahead file's flushes wait behind that burst.
/// Nothing here makes anything durable: the checkpoint's sync still does, and a failed start is
/// only a missed hint, so it is not reported.
final class WritebackStarter: Sendable {
    private let descriptor: Int32
    private let queue = DispatchQueue(label: "logbook-writeback")
    /// `idle`, `running`, or `runningAgain`: a commit came while a start ran, and may have
    /// written pages after that start passed them, so the start runs once more.
    private let state = Atomic(WritebackStarter.idle)
    private static let idle = 0, running = 1, runningAgain = 2

    init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// On the writer's thread after a commit: the writeback of everything written so far starts
    /// soon, at most one start at a time.
    func start() {
        var seen = state.load(ordering: .relaxed)
        while true {
            switch seen {
            case Self.idle:
                let (exchanged, original) = state.compareExchange(expected: Self.idle, desired: Self.running, ordering: .acquiringAndReleasing)
                if exchanged {
                    queue.async { [self] in run() }
                    return
                }
                seen = original
            case Self.running:
                let (exchanged, original) = state.compareExchange(expected: Self.running, desired: Self.runningAgain, ordering: .acquiringAndReleasing)
                if exchanged { return }
                seen = original
            default:
                return
            }
        }
    }

    private func run() {
        while true {
            _ = logbook_start_writeback(descriptor)
            if state.compareExchange(expected: Self.running, desired: Self.idle, ordering: .acquiringAndReleasing).exchanged { return }
            state.store(Self.running, ordering: .releasing)  // it was `runningAgain`
        }
    }

    /// Waits for the starts under way: the descriptor closes with LMDB after this.
    func finish() {
        queue.sync {}
    }
}
