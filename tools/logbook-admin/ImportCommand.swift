import ArgumentParser
import EventLog
import Foundation

/// `import FILE --data-dir DIR`: rebuilds an exported log in an empty data directory, records
/// byte for byte, so its chain head, positions, ids and times are the original's.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Rebuild a log from logbook-admin export's lines in an EMPTY data directory.",
        discussion: """
            Every record is checked as a read checks it, positions must run gap-free from 1 and each \
            stream's versions from 0, and the recomputed chain must end at the header's head; \
            otherwise nothing is left that looks like a log. A server started on DIR rebuilds its \
            read models from the log. The personal data keys (keys/ and the secret.key that wraps them) \
            are not in the log nor in the export: without a copy of them, sealed personal data in the imported log stays \
            unreadable, as erasure intends (docs/decisions/0004). Exits 0 when imported, 1 when the \
            file is refused, 2 when DIR is not empty.
            """
    )

    @Argument(help: ArgumentHelp("The file logbook-admin export wrote.", valueName: "file"))
    var file: String

    @Option(name: .customLong("data-dir"), help: ArgumentHelp("The new data directory: must not exist or be empty.", valueName: "dir"))
    var target: String

    /// Why a line is refused.
    struct Refusal: Error, CustomStringConvertible {
        let line: Int
        let reason: String
        var description: String { "line \(line): \(reason)" }
    }

    func run() throws {
        guard var lines = FileLines(path: file) else {
            printToStandardError("logbook-admin: cannot read \(file)")
            throw ExitCode(AdminError.usageStatus)
        }
        if let existing = try? FileManager.default.contentsOfDirectory(atPath: target), !existing.isEmpty {
            printToStandardError("logbook-admin: \(target) is not empty: import only into a new or empty data directory")
            throw ExitCode(AdminError.usageStatus)
        }
        let importer = try LogImporter(dataDirectory: target)
        do {
            let head = try feed(&lines, to: importer)
            try importer.finish(expecting: head)
            print("imported \(head.position) events into \(target); head \(head)")
        } catch {
            importer.abandon()
            printToStandardError("logbook-admin: import refused: \(error)")
            throw ExitCode(AdminError.failureStatus)
        }
    }

    /// Passes every line to `importer`; returns the header's head.
    private func feed(_ lines: inout FileLines, to importer: LogImporter) throws -> ChainHead {
        var head: ChainHead?
        var number = 0
        while let line = try lines.next() {
            number += 1
            if line.isEmpty { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any],
                  let kind = object["kind"] as? String else {
                throw Refusal(line: number, reason: "not a JSON object with a kind")
            }
            switch kind {
            case "header":
                guard number == 1, let format = object["format"] as? Int, format == ExportCommand.formatVersion,
                      let text = object["head"] as? String, let parsed = ChainHead(text) else {
                    throw Refusal(line: number, reason: "the header must be the first line, of format \(ExportCommand.formatVersion), with a head POS:HASH")
                }
                head = parsed
            case "event":
                guard head != nil else { throw Refusal(line: number, reason: "an event before the header") }
                guard let text = object["record"] as? String, let record = Data(base64Encoded: text),
                      let position = (object["position"] as? NSNumber)?.uint64Value else {
                    throw Refusal(line: number, reason: "an event needs its position and its record in base64")
                }
                guard record.count >= 16, record.withUnsafeBytes({ $0.loadUnaligned(fromByteOffset: 8, as: UInt64.self).littleEndian }) == position else {
                    throw Refusal(line: number, reason: "the record is not the one of position \(position)")
                }
                do {
                    try importer.add(record: [UInt8](record))
                } catch {
                    throw Refusal(line: number, reason: "\(error)")
                }
            case "command":
                guard head != nil, let idText = object["commandId"] as? String, let id = UUID(uuidString: idText),
                      let first = (object["firstPosition"] as? NSNumber)?.uint64Value,
                      let last = (object["lastPosition"] as? NSNumber)?.uint64Value else {
                    throw Refusal(line: number, reason: "a command needs commandId, firstPosition and lastPosition")
                }
                var fingerprint: Data?
                if let text = object["fingerprint"] as? String {
                    guard let bytes = Data(base64Encoded: text) else { throw Refusal(line: number, reason: "fingerprint is not base64") }
                    fingerprint = bytes
                }
                importer.add(command: ExportedCommand(commandID: id, firstPosition: first, lastPosition: last, fingerprint: fingerprint))
            default:
                throw Refusal(line: number, reason: "unknown kind \(kind)")
            }
        }
        guard let head else { throw Refusal(line: 1, reason: "no header") }
        return head
    }
}
