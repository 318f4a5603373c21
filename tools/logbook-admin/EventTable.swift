import EventLog
import LogInspection

/// Lays events out in aligned columns: position, recordedAt, stream, version, type, actor.
///
/// Output streams, so widths are fixed from the first rows (buffered for that purpose); a later
/// cell wider than its column is cut with "…" rather than shifting every column after it. Text
/// columns are capped so one very long stream id cannot push the rest off the screen.
struct EventTable {
    /// Rows buffered to choose the widths.
    static let sampleRowsMax = 200

    /// Characters per column; recordedAt needs none, its width never varies.
    private struct Widths {
        var position = "position".count
        var version = "version".count
        var stream: Int
        var type: Int
        var actor: Int
    }

    private static let streamCap = 40, typeCap = 40, actorCap = 24
    /// `2025-01-31T08:15:00.000000Z`, always.
    private static let recordedAtWidth = 27

    private var sample: [RecordedEvent] = []
    private var widths: Widths?

    /// The lines to print for `event`: none while the widths are still being chosen.
    mutating func add(_ event: RecordedEvent) -> [String] {
        if let widths { return [Self.row(event, widths)] }
        sample.append(event)
        return sample.count >= Self.sampleRowsMax ? flush() : []
    }

    /// Fixes the widths (if not yet done) and returns the header and every buffered row.
    mutating func flush() -> [String] {
        guard widths == nil else { return [] }
        let widths = Self.widths(for: sample)
        self.widths = widths
        defer { sample = [] }
        return [Self.header(widths)] + sample.map { Self.row($0, widths) }
    }

    private static func widths(for sample: [RecordedEvent]) -> Widths {
        // With nothing to measure (tail of an empty log), guess widths that fit typical names.
        guard !sample.isEmpty else { return Widths(stream: 30, type: 30, actor: 16) }
        func fit(_ header: String, _ cap: Int, _ cell: (RecordedEvent) -> String) -> Int {
            min(cap, sample.reduce(header.count) { max($0, cell($1).count) })
        }
        var widths = Widths(
            stream: fit("stream", streamCap, \.streamID), type: fit("type", typeCap, \.type), actor: fit("actor", actorCap, \.actor)
        )
        widths.position = sample.reduce(widths.position) { max($0, String($1.position).count) }
        widths.version = sample.reduce(widths.version) { max($0, String($1.streamVersion).count) }
        return widths
    }

    private static func header(_ widths: Widths) -> String {
        line([
            pad("position", widths.position, right: true), pad("recordedAt", recordedAtWidth),
            pad("stream", widths.stream), pad("version", widths.version, right: true), pad("type", widths.type), "actor",
        ])
    }

    private static func row(_ event: RecordedEvent, _ widths: Widths) -> String {
        // Numbers are never cut: a wrong number is worse than a ragged row.
        line([
            pad(String(event.position), widths.position, right: true),
            Timestamp(event.recordedAt).rfc3339,
            pad(fit(event.streamID, widths.stream), widths.stream),
            pad(String(event.streamVersion), widths.version, right: true),
            pad(fit(event.type, widths.type), widths.type),
            fit(event.actor, max(widths.actor, "actor".count)),
        ])
    }

    private static func line(_ cells: [String]) -> String {
        var text = cells.joined(separator: "  ")
        while text.last == " " { text.removeLast() }
        return text
    }

    /// `text` made printable on one line and cut to `width` characters.
    private static func fit(_ text: String, _ width: Int) -> String {
        // A control character (a newline in a stream id) would break the row.
        let printable = String(text.map { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? "?" : $0 })
        guard printable.count > width else { return printable }
        return String(printable.prefix(max(width - 1, 0))) + "…"
    }

    private static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let padding = String(repeating: " ", count: max(0, width - text.count))
        return right ? padding + text : text + padding
    }
}
