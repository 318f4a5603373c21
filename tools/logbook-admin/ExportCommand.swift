import ArgumentParser
import EventLog
import Foundation
import LogInspection
import PostgresEventLog

/// `export`: the whole log as JSON lines, complete enough for `import` to rebuild it byte for
/// byte (same positions, ids, times, chain head) in another data directory.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Export the whole log as JSON lines (one event a line), for logbook-admin import.",
        discussion: """
            From one read transaction, so safe while the server runs. The first line is the header \
            {"kind":"header","format":1,"events":N,"head":"N:HASH"}; then one line per event in \
            position order: {"kind":"event","position":…,"stream":…,"version":…,"type":…,\
            "schemaVersion":…,"recordedAt":…,"recordedAtMicroseconds":…,"actor":…,"commandId":…,\
            "correlationId":…,"causationId":…,"tags":[…],"data":…,"record":"<base64 of the record \
            exactly as stored>"}; then one line per recorded command: {"kind":"command",\
            "commandId":…,"firstPosition":…,"lastPosition":…,"fingerprint":"<base64>"|null}. \
            Data is as stored: sealed personal data stays sealed, and the keys that open it \
            (data/keys) are not exported (docs/decisions/0004).
            """
    )

    /// The format of the lines; `import` refuses any other.
    static let formatVersion = 1

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Option(name: .customLong("output"), help: ArgumentHelp("Write to this file instead of stdout.", valueName: "file"))
    var output: String?

    func run() async throws {
        let log = try await dataDirectory.openLog()
        defer { log.closeNow() }
        let handle: FileHandle
        if let output {
            // The owner's only, as the log it copies is.
            guard FileManager.default.createFile(atPath: output, contents: nil, attributes: [.posixPermissions: 0o600]) else {
                printToStandardError("logbook-admin: cannot create \(output)")
                throw ExitCode(AdminError.usageStatus)
            }
            handle = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        } else {
            handle = FileHandle.standardOutput
        }
        var buffer = Data()
        func emit(_ line: String) {
            buffer.append(contentsOf: line.utf8)
            buffer.append(UInt8(ascii: "\n"))
            if buffer.count >= 1 << 16 {
                handle.write(buffer)
                buffer.removeAll(keepingCapacity: true)
            }
        }
        try await log.export(
            head: { head in
                emit(JSONText.object([
                    ("kind", JSONText.quoted("header")), ("format", String(Self.formatVersion)),
                    ("events", String(head.position)), ("head", JSONText.quoted(head.description)),
                ]))
            },
            event: { event, record in emit(Self.line(event, record: record)) },
            command: { command in
                emit(JSONText.object([
                    ("kind", JSONText.quoted("command")),
                    ("commandId", JSONText.quoted(command.commandID.uuidString.lowercased())),
                    ("firstPosition", String(command.firstPosition)), ("lastPosition", String(command.lastPosition)),
                    ("fingerprint", command.fingerprint.map { JSONText.quoted($0.base64EncodedString()) } ?? "null"),
                ]))
            }
        )
        handle.write(buffer)
        if output != nil { try handle.synchronize(); try handle.close() }
    }

    /// One event line: the fields for a reader, and the record itself, which `import` writes.
    static func line(_ event: RecordedEvent, record: UnsafeRawBufferPointer) -> String {
        let microseconds = Int64((event.recordedAt.timeIntervalSince1970 * 1_000_000).rounded())
        var fields: [(name: String, json: String)] = [
            ("kind", JSONText.quoted("event")),
            ("position", String(event.position)),
            ("stream", JSONText.quoted(event.streamID)),
            ("version", String(event.streamVersion)),
            ("type", JSONText.quoted(event.type)),
            ("schemaVersion", String(event.schemaVersion)),
            ("recordedAt", JSONText.quoted(Timestamp(event.recordedAt).rfc3339)),
            ("recordedAtMicroseconds", String(microseconds)),
            ("actor", JSONText.quoted(event.actor)),
            ("commandId", JSONText.quoted(event.commandID.uuidString.lowercased())),
            ("correlationId", JSONText.quoted(event.correlationID.uuidString.lowercased())),
            ("causationId", event.causationID.map { JSONText.quoted($0.uuidString.lowercased()) } ?? "null"),
            ("tags", "[" + event.tags.map(JSONText.quoted).joined(separator: ",") + "]"),
        ]
        if let json = EventDataText.json(event.data) {
            fields.append(("data", json))
        } else {
            fields.append(("dataBase64", JSONText.quoted(event.data.base64EncodedString())))
        }
        fields.append(("record", JSONText.quoted(Data(record).base64EncodedString())))
        return JSONText.object(fields)
    }
}
