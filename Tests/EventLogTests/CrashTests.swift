import Foundation
import TestSupport
import Testing
@testable import EventLog

/// Durability: a real process appends with fsync and is killed with SIGKILL mid-write, several
/// times over the same directory; every append it acknowledged must be there afterwards, and
/// the log must verify.
@Suite("Crash", .timeLimit(.minutes(3)))
struct CrashTests {
    /// Also in the write-ahead mode (ADR 0006), checkpointing every 16 commits so that kills land
    /// between, and during, checkpoints; each restart recovers what LMDB had not committed. And
    /// with the index tail, whose entries a kill may leave unwritten.
    @Test(arguments: DurableMode.allCases)
    func everyAcknowledgedAppendSurvivesSIGKILL(mode: DurableMode) async throws {
        let directory = NSTemporaryDirectory() + "crash-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var environment = ProcessInfo.processInfo.environment
        mode.configure(&environment)
        if mode.writeAhead { environment["LOGBOOK_CRASH_WRITER_CHECKPOINT_COMMITS"] = "16" }
        var acknowledged: [UInt64: UUID] = [:]
        var tailsLeft: [Int] = []
        for round in 0..<5 {
            let acks = try await CrashWriterRun.untilKilled(log: directory, environment: environment, killAfter: .milliseconds(150 + 60 * round))
            #expect(acks.count > 0, "round \(round) appended something before the kill")
            for (position, id) in acks {
                #expect(acknowledged[position] == nil, "position \(position) acknowledged twice")
                acknowledged[position] = id
            }
            if mode.indexTailEventsMax > 0 {
                var options = EventStoreOptions()
                options.readOnly = true
                let reader = try LMDBEventStore(dataDirectory: directory, options: options)
                tailsLeft.append(try reader.indexTail().count)
                reader.close()
            }
        }
        if mode.indexTailEventsMax > 0 {
            #expect(tailsLeft.contains { $0 > 0 }, "a kill landed while events waited for their index entries: \(tailsLeft)")
        }
        if mode.writeAhead {
            // The log was left mid-way in the write-ahead mode: its files are there to recover from.
            #expect(FileManager.default.fileExists(atPath: directory + "/log/wal-0"))
        }
        var options = EventStoreOptions()
        options.readOnly = true
        let store = try LMDBEventStore(dataDirectory: directory, options: options)
        let report = try store.verify()
        #expect(report.isHealthy, "\(report.problems)")
        for (position, id) in acknowledged {
            #expect(try store.event(at: position)?.commandID == id, "acknowledged position \(position) survived")
        }
        #expect(try store.headPosition() >= acknowledged.keys.max() ?? 0)
        // Each writer's stream is gap-free across the restarts (it resumed from the stored version).
        for writer in 0..<4 {
            let versions = try store.readStream("crash-\(writer)", limit: 1_000).map(\.streamVersion)
            #expect(versions == Array(0..<UInt64(versions.count)))
        }
    }
}
