import EventLog
import Foundation
import LogInspection

/// One event as a single line of JSON (the `--json` output of `events`, `tail` and `stream`).
enum EventJSONLine {
    static func render(_ event: RecordedEvent) -> String {
        var fields: [(name: String, json: String)] = [
            ("position", String(event.position)),
            ("stream", JSONText.quoted(event.streamID)),
            ("category", JSONText.quoted(event.category)),
            ("version", String(event.streamVersion)),
            ("type", JSONText.quoted(event.type)),
            ("schemaVersion", String(event.schemaVersion)),
            ("recordedAt", JSONText.quoted(Timestamp(event.recordedAt).rfc3339)),
            ("actor", JSONText.quoted(event.actor)),
            ("commandId", JSONText.quoted(identifier(event.commandID))),
            ("correlationId", JSONText.quoted(identifier(event.correlationID))),
        ]
        if let causationID = event.causationID {
            fields.append(("causationId", JSONText.quoted(identifier(causationID))))
        }
        fields.append(("tags", "[" + event.tags.map(JSONText.quoted).joined(separator: ",") + "]"))
        if let json = EventDataText.json(event.data) {
            fields.append(("data", json))
        } else {
            fields.append(("dataBase64", JSONText.quoted(event.data.base64EncodedString())))
        }
        return JSONText.object(fields)
    }

    /// Ids in the lowercase form RFC 9562 recommends.
    private static func identifier(_ id: UUID) -> String { id.uuidString.lowercased() }
}
