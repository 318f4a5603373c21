import EventLog
import Foundation
import LMDB
import Synchronization
import Testing
@testable import Projections

/// A projection double that churns one table: each `test.happened` event adds its position to
/// the value under a key of 1,000 spread over the table (read by key, then put back; every fifth
/// with `update`, which changes only a stored value), or (every third) removes that key; every
/// 997th scans part of the table, which stores what it holds. `held` says whether the table is held.
private struct Churn: Projection {
    let held: Bool

    var name: String { held ? "churn.held" : "churn.plain" }
    var version: Int { 1 }
    var tables: [String] { ["churn"] }
    var heldTables: Set<String> { held ? ["churn"] : [] }

    static func key(_ position: UInt64) -> String { "k\(position * 7_919 % 1_000)" }

    func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        guard event.type == "test.happened" else { return }
        let position = event.position
        if position % 997 == 0 { _ = try model.entries(UInt64.self, in: "churn", prefix: "k1") }
        let key = Self.key(position)
        if position % 3 == 0 {
            try model.delete(key, in: "churn")
        } else if position % 5 == 1 {
            try model.update(UInt64.self, at: key, in: "churn") { $0 += position }
        } else {
            let before = try model.value(UInt64.self, at: key, in: "churn") ?? 0
            try model.put(before + position, at: key, in: "churn")
        }
    }
}

@Suite("Held writes") struct HeldWritesTests {
    let path = NSTemporaryDirectory() + "held-writes-" + UUID().uuidString

    private func open() throws -> (Environment, ReadModelTables) {
        let environment = try Environment(path: path, options: EnvironmentOptions(mapSizeBytes: 1 << 24, unsafeNoSync: true))
        return (environment, ["held": try environment.openDatabase("held"), "plain": try environment.openDatabase("plain")])
    }

    /// `open`, with `a` → 1 and `c` → 3 stored in `held` by a batch before.
    private func openWithAAndC() throws -> (Environment, ReadModelTables) {
        let (environment, tables) = try open()
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables)
            for (key, value) in [("a", 1), ("c", 3)] { try writer.put(value, at: key, in: "held") }
        }
        return (environment, tables)
    }

    /// What LMDB holds in `table` in this transaction, the writer's held writes aside.
    private func stored(_ table: String, _ txn: WriteTransaction, _ tables: ReadModelTables) throws -> [String: Int] {
        let entries = try ReadModelReader(transaction: txn.reader, projection: "p", tables: tables).entries(Int.self, in: table, prefix: "", limit: 100)
        return Dictionary(uniqueKeysWithValues: entries.map { ($0.key, $0.value) })
    }

    /// Given `a` and `c` stored, when a batch puts, replaces and removes in a held table (a key
    /// stored before, one put then removed, one removed then put), then nothing reaches LMDB
    /// until the batch's end, and then the table is what doing each in turn would have left; a
    /// table not held is written at once.
    @Test func heldWritesWaitForTheBatchsEndAndLeaveWhatEachInTurnWould() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try openWithAAndC()
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables, held: HeldWrites(tables: ["held"]))
            try writer.put(26, at: "z", in: "held")
            try writer.put(2, at: "b", in: "held")
            try writer.delete("a", in: "held")
            try writer.put(4, at: "d", in: "held")
            try writer.delete("d", in: "held")
            try writer.delete("e", in: "held")
            try writer.put(5, at: "e", in: "held")
            try writer.put(20, at: "b", in: "held")
            try writer.put(7, at: "y", in: "held")
            try writer.put(1, at: "x", in: "plain")
            try writer.put(2, at: "w", in: "plain")
            try writer.delete("w", in: "plain")
            #expect(try stored("held", txn, tables) == ["a": 1, "c": 3], "held until the batch's end")
            #expect(try stored("plain", txn, tables) == ["x": 1], "a table not held is written (and removed from) at once")
            try writer.storeHeld()
            #expect(try stored("held", txn, tables) == ["b": 20, "c": 3, "e": 5, "y": 7, "z": 26])
            #expect(writer.held?.waiting.isEmpty == true)
        }
    }

    /// Given held writes, when the projection reads their table anyway (a value, a scan), then it
    /// sees them: a value from the last write under its key, a scan after the table's held
    /// writes are stored.
    @Test func aReadOfAHeldTableSeesWhatItHolds() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try open()
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables, held: HeldWrites(tables: ["held"]))
            try writer.put(1, at: "a", in: "held")
            #expect(try writer.value(Int.self, at: "a", in: "held") == 1)
            try writer.put(2, at: "a/1", in: "held")
            #expect(try writer.entries(Int.self, in: "held", prefix: "a").map(\.value) == [1, 2])
            try writer.put(3, at: "a/2", in: "held")
            #expect(try writer.keys(in: "held", prefix: "a/") == ["a/1", "a/2"])
            try writer.delete("a/1", in: "held")
            #expect(try writer.value(Int.self, at: "a/1", in: "held") == nil, "the held removal answers")
            try writer.put(4, at: "b", in: "held")
            try writer.delete("b", in: "held")
            try writer.put(5, at: "c", in: "held")
            try writer.update(Int.self, at: "c", in: "held") { $0 += 1 }
            try writer.storeHeld()
            #expect(try stored("held", txn, tables) == ["a": 1, "a/2": 3, "c": 6])
        }
    }

    /// Given `a` and `c` stored, when a batch reads a held table by key between its writes, then
    /// each read answers the last write under the key (a removal: nil) or, with none held, what
    /// the table holds; nothing is stored for the reads, and the batch's end stores the last
    /// write under each key.
    @Test func aReadByKeyOfAHeldTableIsAnsweredFromItsWrites() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try openWithAAndC()
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables, held: HeldWrites(tables: ["held"]))
            #expect(try writer.value(Int.self, at: "a", in: "held") == 1, "nothing held yet: the table answers")
            try writer.put(2, at: "a", in: "held")
            #expect(try writer.value(Int.self, at: "a", in: "held") == 2)
            #expect(try writer.value(Int.self, at: "c", in: "held") == 3, "no write under c: the table answers")
            #expect(try writer.insert(30, at: "c", in: "held") == false, "an insert too: c is stored")
            try writer.delete("a", in: "held")
            #expect(try writer.value(Int.self, at: "a", in: "held") == nil, "the held removal answers")
            for value in [10, 11, 12] { try writer.put(value, at: "b", in: "held") }
            #expect(try writer.value(Int.self, at: "b", in: "held") == 12, "the last of three writes")
            try writer.update(Int.self, at: "b", in: "held") { $0 += 1 }
            try writer.put(7, at: "c", in: "held")
            #expect(try writer.value(Int.self, at: "c", in: "held") == 7)
            #expect(try writer.value(Int.self, at: "d", in: "held") == nil)
            #expect(try writer.value(Int.self, at: String(repeating: "k", count: 600), in: "held") == nil, "a key LMDB cannot store names nothing")
            #expect(try stored("held", txn, tables) == ["a": 1, "c": 3], "the reads stored nothing")
            try writer.storeHeld()
            #expect(try stored("held", txn, tables) == ["b": 13, "c": 7])
            #expect(try writer.value(Int.self, at: "b", in: "held") == 13, "stored: the table answers again")
        }
    }

    /// Given `k` stored, when a batch changes it ten times with `update` and reads it between the
    /// changes, then it is decoded once (from the table) and encoded once (at the batch's end):
    /// the changes are made to the decoded value, and the reads answer it.
    @Test func aValueUpdatedManyTimesInABatchIsDecodedAndEncodedOnce() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try open()
        try environment.write { txn throws in
            try ReadModelWriter(transaction: txn, projection: "p", tables: tables).put(Counted(total: 1), at: "k", in: "held")
        }
        Counted.decodings.store(0, ordering: .relaxed)
        Counted.encodings.store(0, ordering: .relaxed)
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables, held: HeldWrites(tables: ["held"]))
            for round in 1...10 {
                try writer.update(Counted.self, at: "k", in: "held") { $0.total += 1 }
                #expect(try writer.value(Counted.self, at: "k", in: "held")?.total == 1 + round)
            }
            try writer.update(Counted.self, at: "absent", in: "held") { $0.total += 1 }
            #expect(Counted.encodings.load(ordering: .relaxed) == 0, "nothing encoded before the batch's end")
            try writer.storeHeld()
            #expect(try ReadModelReader(transaction: txn.reader, projection: "p", tables: tables).value(Counted.self, at: "k", in: "held")
                == Counted(total: 11))
            #expect(try ReadModelReader(transaction: txn.reader, projection: "p", tables: tables).value(Counted.self, at: "absent", in: "held") == nil,
                    "an update of nothing stored stores nothing")
        }
        #expect(Counted.encodings.load(ordering: .relaxed) == 1)
        #expect(Counted.decodings.load(ordering: .relaxed) == 2, "once from the table by the first update, once by the check after storing")
    }

    /// Given a value changed with `update` in a held table, when the batch then puts, removes,
    /// puts another value under its key or reads it as another type, then each of those decides
    /// as it would after an unheld update: a later write supersedes the changed value, an update
    /// after a removal changes nothing, one after a put starts from the put, and one as another
    /// type starts from the stored bytes.
    @Test func aLaterWriteSupersedesAValueChangedInPlace() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try openWithAAndC()
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables, held: HeldWrites(tables: ["held"]))
            try writer.update(Int.self, at: "a", in: "held") { $0 += 10 }
            try writer.put(100, at: "a", in: "held")
            #expect(try writer.value(Int.self, at: "a", in: "held") == 100, "the put after the update")
            try writer.update(Int.self, at: "a", in: "held") { $0 += 1 }
            #expect(try writer.value(Int.self, at: "a", in: "held") == 101, "the update starts from the put")
            try writer.update(Int.self, at: "c", in: "held") { $0 += 30 }
            try writer.delete("c", in: "held")
            try writer.update(Int.self, at: "c", in: "held") { $0 += 1 }
            #expect(try writer.value(Int.self, at: "c", in: "held") == nil, "nothing to change after the removal")
            try writer.put(5, at: "e", in: "held")
            try writer.update(Int.self, at: "e", in: "held") { $0 += 1 }
            try writer.put(70, at: "e", in: "held")
            try writer.update(Int.self, at: "f", in: "plain") { $0 += 1 }
            try writer.put(6, at: "g", in: "held")
            try writer.update(Int.self, at: "g", in: "held") { $0 += 1 }
            #expect(try writer.value(UInt64.self, at: "g", in: "held") == UInt64.decode(from: 7.encodedBytes()),
                    "another type reads the changed value's stored bytes")
            try writer.update(Int.self, at: "g", in: "held") { $0 += 1 }
            #expect(try writer.insert(1, at: "g", in: "held") == false, "an insert sees the changed value")
            try writer.put(1, at: "h", in: "held")
            try writer.update(Int.self, at: "h", in: "held") { $0 += 1 }
            try writer.update(UInt64.self, at: "h", in: "held") { $0 += 1 }
            #expect(try writer.value(UInt64.self, at: "h", in: "held") == UInt64.decode(from: 2.encodedBytes()) + 1,
                    "an update as another type starts from the changed value's stored bytes")
            try writer.delete("h", in: "held")
            #expect(try writer.keys(in: "held", prefix: "") == ["a", "e", "g"], "a scan stores the changed values first")
            try writer.update(Int.self, at: "g", in: "held") { $0 += 1 }
            try writer.storeHeld()
            let reader = ReadModelReader(transaction: txn.reader, projection: "p", tables: tables)
            #expect(try reader.entries(Int.self, in: "held", prefix: "", limit: 10).map { "\($0.key)=\($0.value)" } == ["a=101", "e=70", "g=9"])
            #expect(try stored("plain", txn, tables).isEmpty, "an update of nothing stored stores nothing")
            #expect(writer.held?.waiting.isEmpty == true)
        }
    }

    /// The batch's end stores only the last write under each key: rows a later row of the same
    /// table and key supersedes are left out of the storing order, whatever order they came in.
    @Test func onlyTheLastWriteUnderAKeyIsStored() throws {
        var rows = ReadModelRows()
        rows.add(1, at: "k", in: "held")         // 0: superseded by 2
        rows.add(2, at: "j", in: "held")         // 1: superseded by 3
        rows.add(3, at: "k", in: "held")         // 2
        rows.addRemoval(of: "j", in: "held")     // 3
        rows.add(4, at: "l", in: "held")         // 4
        rows.add(5, at: "long-key-1", in: "held") // 5: the same first eight bytes as 6, not the same key
        rows.add(6, at: "long-key-2", in: "held") // 6
        rows.add(7, at: "long-key-2", in: "held") // 7
        #expect(rows.storingOrder() == [1, 3, 0, 2, 4, 5, 6, 7])
        #expect(rows.lastWrites(in: rows.storingOrder()) == [3, 2, 4, 5, 7])
        #expect(rows.lastWrites(in: [4]) == [4])
        #expect(rows.lastWrites(in: []) == [])
    }

    /// `insert` stores a value only under a key that is not there, and says which it did: a
    /// second insert leaves the first value. In a held table it sees the held writes (a put, a
    /// removal) and holds its own put.
    @Test func anInsertStoresOnlyUnderANewKey() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try open()
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables, held: HeldWrites(tables: ["held"]))
            #expect(try writer.insert(1, at: "a", in: "plain") == true)
            #expect(try writer.insert(2, at: "a", in: "plain") == false)
            #expect(try writer.value(Int.self, at: "a", in: "plain") == 1, "the first value stays")
            try writer.put(3, at: "h", in: "held")
            #expect(try writer.insert(4, at: "h", in: "held") == false, "the held put answers")
            #expect(try writer.insert(5, at: "i", in: "held") == true)
            #expect(try writer.insert(6, at: "i", in: "held") == false, "the held insert answers")
            #expect(try stored("held", txn, tables).isEmpty, "nothing stored for the inserts before the batch's end")
            try writer.delete("k", in: "held")
            #expect(try writer.insert(8, at: "k", in: "held") == true, "after a held removal the key is free")
            #expect(throws: LMDBError.keySize(bytes: 600)) { try writer.insert(9, at: String(repeating: "k", count: 600), in: "held") }
            #expect(throws: LMDBError.keySize(bytes: 600)) { try writer.insert(6, at: String(repeating: "k", count: 600), in: "plain") }
            try writer.storeHeld()
            #expect(try stored("held", txn, tables) == ["h": 3, "i": 5, "k": 8])
            #expect(try stored("plain", txn, tables) == ["a": 1])
        }
    }

    /// A key LMDB cannot store fails its put at once, as an unheld put does, so the projection
    /// fails at that event and not at the batch's end; removing one is nothing, as it names nothing.
    @Test func aHeldKeyLMDBRefusesFailsAtItsPut() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try open()
        let long = String(repeating: "k", count: 600)
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables, held: HeldWrites(tables: ["held"]))
            #expect(throws: LMDBError.keySize(bytes: 600)) { try writer.put(1, at: long, in: "held") }
            #expect(throws: LMDBError.keySize(bytes: 0)) { try writer.put(1, at: "", in: "held") }
            try writer.delete(long, in: "held")
            #expect(writer.held?.waiting.isEmpty == true, "nothing held")
        }
    }

    /// The engine stores what a batch held: a catch-up of two batches and more, then live
    /// events, leave the held table exactly as the same projection without held tables leaves it.
    @Test(.timeLimit(.minutes(3))) func aCatchUpWithHeldTablesEqualsOneWithout() async throws {
        let setup = try TestSetup()
        defer { setup.remove() }
        try await setup.append(2 * firstBatch + 500)
        try await setup.append(50, type: "test.other")
        let engine = try setup.engine([Churn(held: true), Churn(held: false)])
        _ = try await engine.prepare()
        let live = Task { try await engine.runLive() }
        defer { live.cancel() }
        try await setup.append(300)
        let total = UInt64(2 * firstBatch + 850)
        try await engine.waitUntilProjected(total)
        let held = try engine.read(Churn(held: true)) { try $0.entries(UInt64.self, in: "churn", limit: 2_000) }
        let plain = try engine.read(Churn(held: false)) { try $0.entries(UInt64.self, in: "churn", limit: 2_000) }
        #expect(held.count > 100 && held.count < 1_000, "some keys stored, some removed: \(held.count)")
        #expect(held.map(\.key) == plain.map(\.key) && held.map(\.value) == plain.map(\.value))
    }
}

/// A value that counts how often it is encoded and decoded.
private struct Counted: ReadModelValue, Equatable {
    static let decodings = Atomic(0)
    static let encodings = Atomic(0)

    var total: Int

    init(total: Int) {
        self.total = total
    }

    func encode(to writer: inout ValueWriter) {
        Self.encodings.add(1, ordering: .relaxed)
        writer.write(total)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        Self.decodings.add(1, ordering: .relaxed)
        total = try reader.read()
    }
}
