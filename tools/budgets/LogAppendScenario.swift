import EventLog
import Foundation
import Synchronization

/// One writer appending one event at a time to the data directory's own log and awaiting each:
/// the server's commonest append. Sequential, so every group commit holds one append and the
/// counts per event are also the counts per commit.
struct LogAppendScenario {
    /// The event appended: 200 bytes of JSON and one tag, as `logbook-bench concurrent` appends.
    static let data = Data(("{\"note\":\"" + String(repeating: "x", count: 189) + "\"}").utf8)

    let writeAhead: Bool
    let eventsWarmingUp = 200
    let eventsMeasured = 2_000

    var window: String { writeAhead ? "log.append.writeAhead" : "log.append.syncing" }

    func run(in directory: String) async throws -> [String: WindowCounts] {
        let commits = Atomic(0)
        var options = EventStoreOptions()
        options.writeAhead = writeAhead
        options.commitObserver = { _ in commits.add(1, ordering: .relaxed) }
        let store = try LMDBEventStore(dataDirectory: directory, options: options)
        defer { store.close() }
        var appended = 0
        func append(_ count: Int) async throws {
            for _ in 0..<count {
                let event = ProposedEvent(streamID: "budget-1", type: "budget.appended", tags: ["budget:1"], data: Self.data)
                _ = try await store.append(AppendRequest(events: [event], metadata: AppendMetadata(actor: "budget")))
                appended += 1
            }
        }
        try await append(eventsWarmingUp)
        let counted = appended
        let counts = try await MeasuredWindow.measure(
            window, units: { appended - counted }, commits: { commits.load(ordering: .relaxed) }
        ) { try await append(eventsMeasured) }
        return [window: counts]
    }
}
