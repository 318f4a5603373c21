import EventLog
import Foundation

/// Prints events as they are read, as a table or as JSON lines.
final class EventOutput {
    private let json: Bool
    private let flushEachLine: Bool
    private var table = EventTable()
    private var eventsWritten = 0

    /// `flushEachLine` makes every line visible at once even through a pipe, which `tail` needs
    /// and a one-off listing does not.
    init(json: Bool, flushEachLine: Bool) {
        self.json = json
        self.flushEachLine = flushEachLine
    }

    func write(_ event: RecordedEvent) {
        eventsWritten += 1
        if json {
            emit(EventJSONLine.render(event))
        } else {
            for line in table.add(event) { emit(line) }
        }
    }

    /// Prints buffered rows; later rows print at once with the column widths chosen now.
    func flushBuffered() {
        guard !json else { return }
        for line in table.flush() { emit(line) }
    }

    /// Ends a listing; an empty table says so instead of showing a bare header.
    func finish() {
        flushBuffered()
        if !json && eventsWritten == 0 { emit("(no events)") }
        fflush(nil)
    }

    private func emit(_ line: String) {
        print(line)
        // Swift 6 rejects fflush(stdout) (a shared mutable global); fflush(nil) flushes every stream.
        if flushEachLine { fflush(nil) }
    }
}
