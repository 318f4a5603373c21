import Foundation
import LMDB
import Testing
@testable import Projections

/// Read-model keys are often a client's input (an e-mail, a join code, a username). A key LMDB
/// cannot store names nothing: lookups find nothing, scans list nothing, and only a put, which
/// the deciders' field checks keep such keys from, fails.
@Suite("Read-model key sizes")
struct ReadModelKeySizeTests {
    let path = NSTemporaryDirectory() + "read-model-keys-" + UUID().uuidString
    static let unstorable = ["", String(repeating: "k", count: 512), String(repeating: "é", count: 300), String(repeating: "x", count: 600)]

    /// A table `t` holding `a`, `a/1`, `a/2` and `b`.
    private func open() throws -> (Environment, ReadModelTables) {
        let environment = try Environment(path: path, options: EnvironmentOptions(mapSizeBytes: 1 << 24, unsafeNoSync: true))
        let tables: ReadModelTables = ["t": try environment.openDatabase("t")]
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables)
            for (key, value) in [("a", 1), ("a/1", 2), ("a/2", 3), ("b", 4)] { try writer.put(value, at: key, in: "t") }
        }
        return (environment, tables)
    }

    @Test(arguments: unstorable)
    func lookupsAndScansOfAnUnstorableKeyFindNothing(key: String) throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try open()
        try environment.read { txn throws in
            let reader = ReadModelReader(transaction: txn, projection: "p", tables: tables)
            #expect(try reader.value(Int.self, at: key, in: "t") == nil)
            if !key.isEmpty {  // the empty prefix is every key
                #expect(try reader.entries(Int.self, in: "t", prefix: key, limit: 10).isEmpty)
                #expect(try reader.entries(Int.self, in: "t", prefix: key, reverse: true, limit: 10).isEmpty)
            }
            // An unknown table is still an error, whatever the key.
            #expect(throws: ReadModelError.unknownTable(projection: "p", table: "nope")) { try reader.value(Int.self, at: key, in: "nope") }
        }
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables)
            #expect(try writer.value(Int.self, at: key, in: "t") == nil)
            try writer.delete(key, in: "t")  // names nothing: nothing to delete, nothing thrown
            if !key.isEmpty { #expect(try writer.keys(in: "t", prefix: key).isEmpty) }
            #expect(throws: LMDBError.keySize(bytes: key.utf8.count), "a put is a projection bug and fails loudly") {
                try writer.put(1, at: key, in: "t")
            }
        }
        #expect(try environment.read { try ReadModelReader(transaction: $0, projection: "p", tables: tables).value(Int.self, at: "b", in: "t") } == 4)
    }

    @Test func pagingAfterAnOverlongKeyContinuesWhereItWouldSort() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, tables) = try open()
        try environment.read { txn throws in
            let reader = ReadModelReader(transaction: txn, projection: "p", tables: tables)
            let long = "a/1" + String(repeating: "z", count: 600)
            #expect(try reader.entries(Int.self, in: "t", prefix: "a", after: long, limit: 10).map(\.key) == ["a/2"])
            #expect(try reader.entries(Int.self, in: "t", prefix: "a", after: long, reverse: true, limit: 10).map(\.key) == ["a/1", "a"])
        }
    }
}
