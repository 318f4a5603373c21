import Foundation
import Testing
@testable import EventLog

/// `LMDBEventStore.export` and `LogImporter`: an exported log rebuilt in an empty directory is
/// the same log (records, chain head, command entries); damaged exports are refused and leave
/// no log behind.
@Suite struct LogImportTests {
    /// What `export` hands over, copied out of its snapshot.
    struct Exported {
        var head: ChainHead
        var records: [[UInt8]] = []
        var commands: [ExportedCommand] = []
    }

    static func exported(_ store: LMDBEventStore) throws -> Exported {
        var result = Exported(head: ChainHead(position: 0, hash: ChainHash.genesis))
        try store.export(
            head: { result.head = $0 },
            event: { _, record in result.records.append(Array(record)) },
            command: { result.commands.append($0) }
        )
        return result
    }

    /// A log with several streams, tags, a causation id, fingerprints and an append of no events.
    static func sourceLog() async throws -> (TestLog, emptyCommand: UUID) {
        let log = try TestLog()
        let cause = UUID()
        _ = try await log.store.append(AppendRequest(
            events: [event("album-1", "album.created", tags: ["user:a"]), event("album-1", "photo.added", tags: ["user:a", "album:1"])],
            metadata: AppendMetadata(causationID: cause, actor: "user-a", fingerprint: Data([1, 2, 3]))
        ))
        _ = try await log.store.append(request([event("quiz-9", "quiz.created", #"{"title":"ü \"q\""}"#)]))
        let emptyCommand = UUID()
        _ = try await log.store.append(AppendRequest(
            events: [], metadata: AppendMetadata(commandID: emptyCommand, actor: "system", fingerprint: Data([9]))
        ))
        _ = try await log.store.append(request([event("album-1", "album.renamed"), event("news-2", "news.posted", tags: ["org:x"])]))
        return (log, emptyCommand)
    }

    static func importing(_ exported: Exported, into directory: String) throws {
        let importer = try LogImporter(dataDirectory: directory)
        do {
            for record in exported.records { try importer.add(record: record) }
            for command in exported.commands { importer.add(command: command) }
            try importer.finish(expecting: exported.head)
        } catch {
            importer.abandon()
            throw error
        }
    }

    static func freshDirectory() -> String { NSTemporaryDirectory() + "import-tests-" + UUID().uuidString }

    @Test func anImportedLogIsTheSameLog() async throws {
        let (log, emptyCommand) = try await Self.sourceLog()
        defer { log.remove() }
        let original = try Self.exported(log.store)
        let directory = Self.freshDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.importing(original, into: directory)

        let imported = try LMDBEventStore(dataDirectory: directory)
        defer { imported.close() }
        let again = try Self.exported(imported)
        #expect(again.records == original.records)
        #expect(again.commands == original.commands)
        #expect(again.head == original.head)
        #expect(try imported.chainHead() == log.store.chainHead())
        #expect(try imported.everything() == log.store.everything())
        let report = try imported.verify(heads: [original.head])
        #expect(report.problems.isEmpty)
        #expect(report.eventsChecked == 5)
        // The append of no events is still answered as a retry, with its fingerprint.
        #expect(try imported.appendResult(ofCommand: emptyCommand) == log.store.appendResult(ofCommand: emptyCommand))
        #expect(try imported.readStream("album-1", limit: 10).map(\.position) == [1, 2, 4])
        #expect(try imported.readTag("user:a", limit: 10).map(\.position) == [1, 2])
        // The imported log goes on where the original stopped.
        let next = try await imported.append(request([event("album-1", "album.archived")], expect: ["album-1": .exact(2)]))
        #expect(next.firstPosition == 6)
    }

    @Test func aNonEmptyDirectoryIsRefused() throws {
        let directory = Self.freshDirectory()
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        FileManager.default.createFile(atPath: directory + "/notes.txt", contents: Data("keep".utf8))
        #expect(throws: EventLogError.self) { _ = try LogImporter(dataDirectory: directory) }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["notes.txt"])
    }

    @Test func aGapInPositionsIsRefused() async throws {
        let (log, _) = try await Self.sourceLog()
        defer { log.remove() }
        var damaged = try Self.exported(log.store)
        damaged.records.remove(at: 2)
        try Self.expectRefusedLeavingNoLog(damaged)
    }

    @Test func aDamagedRecordIsRefused() async throws {
        let (log, _) = try await Self.sourceLog()
        defer { log.remove() }
        var damaged = try Self.exported(log.store)
        damaged.records[1][damaged.records[1].count - 10] ^= 0x01
        try Self.expectRefusedLeavingNoLog(damaged)
    }

    @Test func aWrongChainHeadIsRefused() async throws {
        let (log, _) = try await Self.sourceLog()
        defer { log.remove() }
        var damaged = try Self.exported(log.store)
        var hash = damaged.head.hash
        hash[0] ^= 0xFF
        damaged.head = ChainHead(position: damaged.head.position, hash: hash)
        try Self.expectRefusedLeavingNoLog(damaged)
        // And a head that promises more events than the records hold.
        var short = try Self.exported(log.store)
        short.records.removeLast()
        try Self.expectRefusedLeavingNoLog(short)
    }

    @Test func aStreamVersionOutOfOrderIsRefused() async throws {
        // Two logs whose records are each valid at their position, spliced: the second log's
        // position-2 record starts its stream at version 0 where version 1 is due.
        let first = try TestLog()
        defer { first.remove() }
        _ = try await first.store.append(request([event("album-1"), event("album-1")]))
        let second = try TestLog()
        defer { second.remove() }
        _ = try await second.store.append(request([event("quiz-1"), event("album-1")]))
        var spliced = try Self.exported(first.store)
        spliced.records[1] = try Self.exported(second.store).records[1]
        try Self.expectRefusedLeavingNoLog(spliced)
    }

    static func expectRefusedLeavingNoLog(_ exported: Exported) throws {
        let directory = freshDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: EventLogError.self) { try importing(exported, into: directory) }
        let left = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        #expect(!left.contains("log"))
        #expect(!left.contains(LogImporter.stagingName))
        var options = EventStoreOptions()
        options.readOnly = true
        #expect(throws: EventLogError.self) { _ = try LMDBEventStore(dataDirectory: directory, options: options) }
    }
}
