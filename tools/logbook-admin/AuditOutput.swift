import EventLog
import Foundation
import LogInspection

/// Prints an audit trail: a table (position, recordedAt, actor, type, stream, command and
/// correlation ids) or one JSON object per line with the event's metadata and tags, never its
/// data: the trail says who did what, and personal data stays in `events` (sealed).
final class AuditOutput {
    private let json: Bool
    private var rows: [[String]] = []
    private var rowsWritten = 0

    /// Table rows aligned together; a longer trail prints in blocks of this many rows, each
    /// aligned on its own, so memory stays bounded.
    static let rowsPerBlock = 1_000

    init(json: Bool) {
        self.json = json
    }

    func write(_ event: RecordedEvent) {
        rowsWritten += 1
        if json {
            print(Self.line(event))
            return
        }
        rows.append([
            String(event.position), Timestamp(event.recordedAt).rfc3339, event.actor, event.type, event.streamID,
            Self.identifier(event.commandID), Self.identifier(event.correlationID),
        ])
        if rows.count == Self.rowsPerBlock { flush() }
    }

    /// Prints what is buffered; an empty table says so instead of showing a bare header.
    func finish() {
        flush()
        if !json && rowsWritten == 0 { print("(no events)") }
        fflush(nil)
    }

    private func flush() {
        guard !rows.isEmpty else { return }
        let header = rowsWritten == rows.count ? [["position", "recordedAt", "actor", "type", "stream", "commandId", "correlationId"]] : []
        for line in TextColumns.render(header + rows.map { $0.map(Self.printable) }, numeric: [0]) { print(line) }
        rows = []
    }

    /// The audit fields of `event` as one line of JSON.
    static func line(_ event: RecordedEvent) -> String {
        var fields: [(name: String, json: String)] = [
            ("position", String(event.position)),
            ("recordedAt", JSONText.quoted(Timestamp(event.recordedAt).rfc3339)),
            ("actor", JSONText.quoted(event.actor)),
            ("type", JSONText.quoted(event.type)),
            ("stream", JSONText.quoted(event.streamID)),
            ("version", String(event.streamVersion)),
            ("commandId", JSONText.quoted(identifier(event.commandID))),
            ("correlationId", JSONText.quoted(identifier(event.correlationID))),
        ]
        if let causationID = event.causationID { fields.append(("causationId", JSONText.quoted(identifier(causationID)))) }
        fields.append(("tags", "[" + event.tags.map(JSONText.quoted).joined(separator: ",") + "]"))
        return JSONText.object(fields)
    }

    private static func identifier(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// A control character (a newline in a stream id) would break the row.
    private static func printable(_ text: String) -> String {
        String(text.map { $0.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F } ? "?" : $0 })
    }
}
