import EventLog
import Foundation
import LMDB
import Testing
@testable import Projections

/// A projection double that churns one table: each `test.happened` event puts its position under
/// a key of 1,000 spread over the table, or (every third) removes that key; every 997th reads
/// a key back, which stores what the table holds. `held` says whether the table is held.
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
        if position % 997 == 0 { _ = try model.value(UInt64.self, at: Self.key(position + 1), in: "churn") }
        if position % 3 == 0 {
            try model.remove(Self.key(position), in: "churn")
        } else {
            try model.put(position, at: Self.key(position), in: "churn")
        }
    }
}

@Suite("Held writes") struct HeldWritesTests {
    let path = NSTemporaryDirectory() + "held-writes-" + UUID().uuidString

    private func open() throws -> (Environment, ReadModelTables) {
        let environment = try Environment(path: path, options: EnvironmentOptions(mapSizeBytes: 1 << 24, unsafeNoSync: true))
        return (environment, ["held": try environment.openDatabase("held"), "plain": try environment.openDatabase("plain")])
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
        let (environment, tables) = try open()
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables)
            for (key, value) in [("a", 1), ("c", 3)] { try writer.put(value, at: key, in: "held") }
        }
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables, held: HeldWrites(tables: ["held"]))
            try writer.put(26, at: "z", in: "held")
            try writer.put(2, at: "b", in: "held")
            try writer.remove("a", in: "held")
            try writer.put(4, at: "d", in: "held")
            try writer.remove("d", in: "held")
            try writer.remove("e", in: "held")
            try writer.put(5, at: "e", in: "held")
            try writer.put(20, at: "b", in: "held")
            try writer.put(encoded: writer.encoded(7), at: "y", in: "held")
            try writer.put(1, at: "x", in: "plain")
            try writer.put(2, at: "w", in: "plain")
            try writer.remove("w", in: "plain")
            #expect(try stored("held", txn, tables) == ["a": 1, "c": 3], "held until the batch's end")
            #expect(try stored("plain", txn, tables) == ["x": 1], "a table not held is written (and removed from) at once")
            try writer.storeHeld()
            #expect(try stored("held", txn, tables) == ["b": 20, "c": 3, "e": 5, "y": 7, "z": 26])
            #expect(writer.held?.waiting.isEmpty == true)
        }
    }

    /// Given held writes, when the projection reads their table anyway (a value, a scan, a
    /// `delete` that answers), then it sees them: the table's held writes are stored first.
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
            try writer.remove("a/1", in: "held")
            #expect(try writer.delete("a/1", in: "held") == false, "removed by the held removal, stored first")
            try writer.put(4, at: "b", in: "held")
            #expect(try writer.delete("b", in: "held") == true)
            try writer.put(5, at: "c", in: "held")
            try writer.update(Int.self, at: "c", in: "held") { $0 += 1 }
            try writer.storeHeld()
            #expect(try stored("held", txn, tables) == ["a": 1, "a/2": 3, "c": 6])
        }
    }

    /// `insert` stores a value only under a key that is not there, and says which it did: a
    /// second insert leaves the first value. In a held table it sees the held writes.
    @Test func anInsertStoresOnlyUnderANewKey() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try open()
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables, held: HeldWrites(tables: ["held"]))
            #expect(try writer.insert(1, at: "a", in: "plain") == true)
            #expect(try writer.insert(2, at: "a", in: "plain") == false)
            #expect(try writer.value(Int.self, at: "a", in: "plain") == 1, "the first value stays")
            try writer.put(3, at: "h", in: "held")
            #expect(try writer.insert(4, at: "h", in: "held") == false, "the held put is stored first")
            #expect(try writer.insert(5, at: "i", in: "held") == true)
            #expect(throws: LMDBError.keySize(bytes: 600)) { try writer.insert(6, at: String(repeating: "k", count: 600), in: "plain") }
            try writer.storeHeld()
            #expect(try stored("held", txn, tables) == ["h": 3, "i": 5])
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
            #expect(throws: LMDBError.keySize(bytes: 0)) { try writer.put(encoded: [1], at: "", in: "held") }
            try writer.remove(long, in: "held")
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
