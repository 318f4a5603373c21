import EventLog
import Foundation

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
        if let json = embeddableJSON(event.data) {
            fields.append(("data", json))
        } else {
            fields.append(("dataBase64", JSONText.quoted(event.data.base64EncodedString())))
        }
        return JSONText.object(fields)
    }

    /// Ids in the lowercase form RFC 9562 recommends.
    private static func identifier(_ id: UUID) -> String { id.uuidString.lowercased() }

    /// The data as JSON text fit for one line, or nil when it is not JSON. The text is kept as
    /// stored, not re-serialised, so numbers and key order come out exactly as written; raw line
    /// breaks can only be whitespace between tokens in valid JSON, so blanking them is lossless.
    static func embeddableJSON(_ data: Data) -> String? {
        // Requiring UTF-8 excludes the UTF-16/32 encodings JSONSerialization also accepts.
        guard !data.isEmpty, let text = String(validating: data, as: UTF8.self), !text.hasPrefix("\u{FEFF}"),
              (try? JSONSerialization.jsonObject(with: data, options: .fragmentsAllowed)) != nil
        else { return nil }
        var line = ""
        line.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            if scalar == "\n" || scalar == "\r" { line += " " } else { line.unicodeScalars.append(scalar) }
        }
        return line.trimmingCharacters(in: .whitespaces)
    }
}
