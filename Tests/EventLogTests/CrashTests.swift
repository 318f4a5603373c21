import Foundation
import TestSupport
import Testing
@testable import EventLog

/// Durability: a real process appends with fsync and is killed with SIGKILL mid-write, several
/// times over the same directory; every append it acknowledged must be there afterwards, and
/// the log must verify.
@Suite("Crash", .timeLimit(.minutes(3)))
struct CrashTests {
    @Test func everyAcknowledgedAppendSurvivesSIGKILL() async throws {
        let directory = NSTemporaryDirectory() + "crash-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var acknowledged: [UInt64: UUID] = [:]
        for round in 0..<5 {
            let acks = try await CrashWriterRun.untilKilled(log: directory, killAfter: .milliseconds(150 + 60 * round))
            #expect(acks.count > 0, "round \(round) appended something before the kill")
            for (position, id) in acks {
                #expect(acknowledged[position] == nil, "position \(position) acknowledged twice")
                acknowledged[position] = id
            }
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
