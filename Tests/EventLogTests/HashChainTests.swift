import Foundation
import LMDB
import Testing
@testable import EventLog

/// The hash chain (docs/record-format.md "Hash chain"): written with every event, recomputed by
/// `verify`, and the proof that a published head still describes the log.
@Suite("Hash chain", .timeLimit(.minutes(2)))
struct HashChainTests {
    private func seeded(_ count: Int = 10) async throws -> TestLog {
        let log = try TestLog()
        for index in 0..<count {
            _ = try await log.store.append(request([event("house-\(index % 3)", tags: ["t:\(index % 2)"], #"{"n":\#(index)}"#)]))
        }
        return log
    }

    /// Replaces the record at `position` with `transform` of it and a recomputed CRC, through
    /// LMDB, as someone with write access to the file would: every check a read makes passes.
    static func rewrite(_ store: LMDBEventStore, at position: UInt64, _ transform: (inout [UInt8]) -> Void) throws {
        try store.environment.write { txn in
            var bytes = Array(try #require(try txn.get(store.databases.events, IndexKeys.position(position))))
            transform(&bytes)
            let body = bytes.count - RecordLayout.checksumBytes
            let crc = CRC32C.checksum(Array(bytes[..<body]))
            withUnsafeBytes(of: crc.littleEndian) { bytes.replaceSubrange(body..., with: $0) }
            try txn.put(store.databases.events, IndexKeys.position(position), bytes)
        }
    }

    /// Swaps the two digits of `{"n":1X}`-style data so the record stays valid JSON of the same size.
    static func changeData(_ bytes: inout [UInt8]) {
        let digit = bytes.count - RecordLayout.checksumBytes - 2  // the last digit before "}"
        bytes[digit] = bytes[digit] == UInt8(ascii: "7") ? UInt8(ascii: "8") : UInt8(ascii: "7")
    }

    /// Recomputes and stores the whole chain from the records, as a forger who wants the stored
    /// chain to hold together would (one entry per event: verify accepts any grouping).
    static func rechain(_ store: LMDBEventStore) throws {
        try store.environment.write { txn in
            let chain = try #require(store.databases.chain)
            try txn.clear(chain)
            var previous = ChainHash.genesis
            var current: UInt64 = 1
            while let record = try txn.get(store.databases.events, IndexKeys.position(current)) {
                previous = ChainHash.after(previous, record: record)
                try txn.put(chain, IndexKeys.position(current), previous)
                current += 1
            }
        }
    }

    @Test func theChainFollowsItsDefinitionOverALongLog() async throws {
        let log = try TestLog()
        defer { log.remove() }
        // 20,000 events: bulk appends, then single appends from concurrent tasks, so hashes are
        // chained across batches of every size.
        for batch in 0..<19 {
            let events = (0..<1_000).map { event("bulk-\(($0 + batch) % 7)", tags: ["b:\($0 % 5)"], #"{"i":\#($0)}"#) }
            _ = try await log.store.append(request(events))
        }
        let store = log.store
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<8 {
                group.addTask { for _ in 0..<125 { _ = try await store.append(request([event("w-\(writer)")])) } }
            }
            try await group.waitForAll()
        }
        #expect(store.commitCount < 19 + 1_000, "single appends shared commits")
        // The definition, applied to the stored bytes: H(0) = 0³², H(P) = SHA-256(H(P-1) ‖ record P).
        var expected = [UInt8](repeating: 0, count: 32)
        var stored: [[UInt8]] = []
        try store.forEachRecord { _, record, hash in
            expected = ChainHash.after(expected, record: record)
            stored.append(hash ?? [])
            #expect(hash == expected)
        }
        #expect(stored.count == 20_000)
        let head = try #require(try store.chainHead())
        #expect(head == ChainHead(position: 20_000, hash: expected))
        let report = try store.verify(heads: [head])
        #expect(report.isHealthy, "\(report.problems)")
        #expect(report.eventsChecked == 20_000 && report.chainHashesChecked == 20_000 && report.headsChecked == 1)
        #expect(report.chainHead == head && report.firstDivergingPosition == nil)
    }

    @Test func anEmptyLogHasTheGenesisHead() throws {
        let log = try TestLog()
        defer { log.remove() }
        let head = try #require(try log.store.chainHead())
        #expect(head.description == "0:" + String(repeating: "0", count: 64))
        #expect(try log.store.verify(heads: [head]).isHealthy)
        let wrong = ChainHead(position: 0, hash: [UInt8](repeating: 1, count: 32))
        #expect(try log.store.verify(heads: [wrong]).firstDivergingPosition == 0)
    }

    @Test func aRewrittenEventWithARecomputedChecksumIsNamed() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let published = try #require(try log.store.chainHead())
        try Self.rewrite(log.store, at: 4, Self.changeData)
        // Every check a read makes passes: only the chain can tell.
        let rewritten = try #require(try log.store.event(at: 4))
        #expect(String(decoding: rewritten.data, as: UTF8.self) == #"{"n":7}"#)
        let report = try log.store.verify()
        #expect(report.problems == ["chain: position 4 does not hash to its stored chain hash: the event there (or the hash before it) was rewritten after it was appended"])
        #expect(report.firstDivergingPosition == 4)
        let againstHead = try log.store.verify(heads: [published])
        #expect(againstHead.firstDivergingPosition == 4)
        #expect(againstHead.problems.last?.hasPrefix("head 10: the log up to 10 is not the published one") == true)
        #expect(againstHead.problems.last?.hasSuffix("the first diverging position is 4") == true)
    }

    @Test func aForgedConsistentLogFailsTheOriginalHead() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let early = try #require(try log.store.chainHead())
        for index in 10..<20 { _ = try await log.store.append(request([event("house-\(index % 3)", #"{"n":\#(index)}"#)])) }
        let published = try #require(try log.store.chainHead())
        try Self.rewrite(log.store, at: 14, Self.changeData)
        try Self.rechain(log.store)
        // Internally consistent: checksums, indexes and the stored chain all hold.
        let alone = try log.store.verify()
        #expect(alone.isHealthy, "\(alone.problems)")
        #expect(alone.chainHead != published)
        let report = try log.store.verify(heads: [published])
        #expect(!report.isHealthy && report.problemCount == 1)
        #expect(report.problems.first?.hasPrefix("head 20: the log up to 20 is not the published one (its hash there is \(alone.chainHead!.hashHex), the published \(published.hashHex))") == true, "\(report.problems)")
        #expect(report.firstDivergingPosition == 20)
        // An earlier published head narrows it down, and still holds itself.
        let narrowed = try log.store.verify(heads: [early, published])
        #expect(narrowed.headsChecked == 2 && narrowed.problemCount == 1)
        #expect(narrowed.problems.first?.contains("it was changed after position 10, whose published head matches") == true, "\(narrowed.problems)")
    }

    @Test func theHeadOfAPrefixVerifiesAfterGrowth() async throws {
        let log = try await seeded()
        defer { log.remove() }
        let published = try #require(try log.store.chainHead())
        #expect(published.position == 10)
        let store = log.store
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<5 {
                group.addTask { for _ in 0..<10 { _ = try await store.append(request([event("grow-\(writer)")])) } }
            }
            try await group.waitForAll()
        }
        let report = try store.verify(heads: [published])
        #expect(report.isHealthy && report.headsChecked == 1 && report.lastPosition == 60, "\(report.problems)")
        #expect(ChainHead(published.description) == published, "what head prints, verify --head reads back")
        let wrongHash = ChainHead(position: 10, hash: published.hash.map { $0 ^ 0xFF })
        #expect(try store.verify(heads: [wrongHash]).firstDivergingPosition == 10)
        let beyond = try store.verify(heads: [ChainHead(position: 61, hash: published.hash)])
        #expect(beyond.problems == ["head 61: the log ends at position 60, before the published head"])
    }

    @Test func headsAreParsedStrictly() {
        let hash = String(repeating: "ab", count: 32)
        #expect(ChainHead("12:\(hash)")?.position == 12)
        #expect(ChainHead("12:\(hash.uppercased())")?.hashHex == hash)
        for bad in ["", "12", "12:", ":\(hash)", "-1:\(hash)", "12:\(hash)00", "12:\(hash.dropLast())", "x:\(hash)", "12:\(hash.dropLast(2))zz", "+12:\(hash)"] {
            #expect(ChainHead(bad) == nil, "\(bad)")
        }
    }

    /// Makes `directory` look as it did before the chain: no `chain` database, format 1.
    static func downgrade(_ directory: String) throws {
        let environment = try Environment(path: directory + "/log")
        let chain = try environment.openDatabase("chain", create: false)
        let meta = try environment.openDatabase("meta", create: false)
        try environment.write { txn in
            try txn.drop(chain)
            var value = [UInt8]()
            value.appendBigEndian(LogDatabases.formatVersionBeforeChain)
            try txn.put(meta, LogDatabases.formatKey, value)
        }
    }

    private func format(_ store: LMDBEventStore) throws -> UInt32? {
        try store.environment.read { txn in
            try txn.get(store.databases.meta, LogDatabases.formatKey).map { $0.loadUnaligned(as: UInt32.self).bigEndian }
        }
    }

    @Test func aLogWrittenBeforeTheChainIsMigratedOnceWhenOpenedWritable() async throws {
        let log = try await seeded(50)
        defer { log.remove() }
        let original = try #require(try log.store.chainHead())
        log.store.close()
        try Self.downgrade(log.directory)

        // Read-only (the CLI beside an old server): readable, but no chain to prove.
        let reader = try log.reopen { $0.readOnly = true }
        #expect(try reader.chainHead() == nil)
        #expect(try reader.everything().count == 50)
        let unproven = try reader.verify()
        #expect(unproven.problems == ["chain: the log was written before the hash chain (format 1); open it writable once (start the server on it, or run logbook-admin migrate) to compute the chain"])
        #expect(try format(reader) == 1, "a read-only open changes nothing")
        reader.close()

        let migrated = try log.reopen()
        #expect(try migrated.chainHead() == original, "the chain is computed from the stored records, as they were appended")
        #expect(try format(migrated) == LogDatabases.formatVersion)
        #expect(try migrated.verify(heads: [original]).isHealthy)
        _ = try await migrated.append(request([event("after-1")]))
        let grown = try #require(try migrated.chainHead())
        migrated.close()

        // Once: a second open finds format 2 and keeps the chain as it is.
        let again = try log.reopen()
        defer { again.close() }
        #expect(try again.chainHead() == grown)
        #expect(try again.verify(heads: [original, grown]).isHealthy)
    }

    @Test func aMigrationCutShortStartsOverFromTheRecords() async throws {
        let log = try await seeded(30)
        defer { log.remove() }
        let original = try #require(try log.store.chainHead())
        // A crash after the chain database was created but before the migration committed:
        // format 1 still, and whatever the chain holds is not trusted.
        try log.store.environment.write { txn in
            let chain = try #require(log.store.databases.chain)
            try txn.clear(chain)
            try txn.put(chain, IndexKeys.position(1), [UInt8](repeating: 7, count: 32))
            try txn.put(chain, IndexKeys.position(99), [UInt8](repeating: 7, count: 32))
            var value = [UInt8]()
            value.appendBigEndian(LogDatabases.formatVersionBeforeChain)
            try txn.put(log.store.databases.meta, LogDatabases.formatKey, value)
        }
        log.store.close()
        let reader = try log.reopen { $0.readOnly = true }
        #expect(try reader.chainHead() == nil, "a chain of an unfinished migration is not one")
        reader.close()
        let migrated = try log.reopen()
        defer { migrated.close() }
        #expect(try migrated.chainHead() == original)
        let report = try migrated.verify()
        #expect(report.isHealthy && report.chainHashesChecked == 30, "\(report.problems)")
    }

    @Test func aMissingOrStrayHashIsFound() async throws {
        let log = try await seeded()
        defer { log.remove() }
        try log.store.environment.write { txn in
            let chain = try #require(log.store.databases.chain)
            _ = try txn.delete(chain, IndexKeys.position(6))
        }
        let report = try log.store.verify()
        #expect(report.problems.contains("chain: no hash stored for position 6"))
        #expect(report.problems.contains("chain: 9 hashes for 10 events"))
        #expect(report.problems.contains("chain: entry at position 7 (32 bytes) does not follow the one before, which ends at 5"))
        #expect(report.problemCount == 3, "\(report.problems)")
    }
}
