import Accounts
import EventLog
import EventSourcing
import Foundation
import PostgresEventLog
import Projections
import Synchronization

/// Takes an erased user's data out of the read models (ADR 0004): the events now decode to
/// placeholders, so a rebuild of every read model drops the data from the pages in use, and a
/// compaction of the read-model file at shutdown drops the freed pages that still hold it.
///
/// A marker file (`keys/readmodels.scrub`) keeps the duty across a crash: a server that finds
/// it rebuilds again on start, and removes it only after a compaction.
final class ReadModelScrub: Sendable {
    private let marker: String
    /// Whether a scrub runs, whether another was asked for meanwhile, whether one ran to its end
    /// in this process (only then may a compaction remove the marker), and how many passes over
    /// every read model were started.
    private let state = Mutex<(running: Bool, again: Bool, completed: Bool, passes: Int)>((false, false, false, 0))

    init(dataDirectory: String) {
        marker = ((dataDirectory as NSString).appendingPathComponent(PersonalDataKeyStore.directoryName) as NSString)
            .appendingPathComponent("readmodels.scrub")
    }

    /// Whether the read models may still hold erased data (a scrub or compaction is owed).
    var isPending: Bool { FileManager.default.fileExists(atPath: marker) }

    /// Whether a scrub ran to its end in this process.
    var hasCompleted: Bool { state.withLock { $0.completed } }

    /// How many passes over every read model this process started.
    var passes: Int { state.withLock { $0.passes } }

    /// Records, durably, that a scrub is owed: from here on a crash leaves the duty to the next start.
    func markPending() throws {
        try DurableFile.write(Data(), to: marker)
    }

    /// Rebuilds every read model of `engine`, unless a scrub is running: then it runs again once
    /// the current one ends, for erasures that came too late for it.
    func start(_ engine: ProjectionEngine<EventLogBackend>) {
        let first = state.withLock { state -> Bool in
            if state.running {
                state.again = true
                return false
            }
            state.running = true
            return true
        }
        // After `running` is set: whoever sees the marker and waits for `idle` waits for this run.
        // Usually written already by `ErasureFollower`; a failure here leaves the rebuild to run anyway.
        if !isPending { try? markPending() }
        guard first else { return }
        Task {
            var failed = false
            repeat {
                failed = false
                state.withLock { $0.passes += 1 }
                for projection in engine.projections {
                    // A failure is recorded by the engine and shown by GET /v1/admin/projections;
                    // the marker stays, so the next start tries again.
                    do {
                        try await engine.rebuild(projection.name)
                    } catch {
                        failed = true
                    }
                }
            } while state.withLock { state in
                if state.again {
                    state.again = false
                    return true
                }
                state.running = false
                state.completed = state.completed || !failed
                return false
            }
        }
    }

    /// Rebuilds the read models once the projection runner has caught up with the log, when the
    /// marker says an earlier process's scrub did not complete, unless a scrub has run or runs in
    /// this one: `ErasureFollower.recover` starts one for an erasure it finishes, which may end
    /// before the runner catches up, and a second would keep the marker past the next `close`.
    func finishPending(_ runtime: LogbookRuntime) async {
        guard isPending, let head = try? await runtime.log.headPosition() else { return }
        try? await runtime.projections.waitUntilProjected(head, timeout: .seconds(60))
        guard isPending, state.withLock({ !$0.running && !$0.completed }) else { return }
        runtime.scrubReadModels()
    }

    /// Returns once no scrub runs.
    func idle() async {
        while state.withLock({ $0.running }) {
            try? await Task.sleep(for: .milliseconds(20))
        }
    }

    /// Compacts the read models when a scrub is owed and none runs, then removes the marker.
    func compactIfPending(_ engine: ProjectionEngine<EventLogBackend>) {
        guard isPending, state.withLock({ !$0.running && $0.completed }) else { return }
        do {
            try engine.compactReadModelsForShutdown()
            try FileManager.default.removeItem(atPath: marker)
        } catch {
            // The marker stays: the next start rebuilds and the next stop compacts again.
        }
    }
}
