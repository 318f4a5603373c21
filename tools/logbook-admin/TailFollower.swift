import EventLog
import LogInspection
import PostgresEventLog
import Foundation

/// The work of `tail`, kept `Sendable` so it can run in a task that a signal cancels.
struct TailFollower: Sendable {
    let store: EventLogBackend
    let filter: EventFilter
    let lines: Int
    let json: Bool

    func run() async throws {
        let output = EventOutput(json: json, flushEachLine: true)
        // The history ends at the head read now and the subscription starts right after it,
        // so no event is shown twice or missed in between.
        let head = try await store.headPosition()
        if lines > 0, filter.positions.lowerBound <= head {
            var history = filter
            history.positions = filter.positions.lowerBound...min(filter.positions.upperBound, head)
            for event in try await EventScanner(store: store, filter: history).last(lines) { output.write(event) }
        }
        output.flushBuffered()
        for try await event in store.subscribe(from: max(head + 1, filter.positions.lowerBound)) {
            if filter.isPastEnd(event) { break }
            if filter.matches(event) { output.write(event) }
        }
        fflush(nil)
    }
}
