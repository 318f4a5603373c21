import Foundation
@testable import LMDB
import Testing
@testable import Projections

@Suite("Read-model keys")
struct ReadModelKeysTests {
    @Test(arguments: [
        (UInt64(0), "00000000000000000000"), (42, "00000000000000000042"),
        (1_000_000, "00000000000001000000"), (UInt64.max, "18446744073709551615"),
    ])
    func numbersArePaddedToTwentyDigits(value: UInt64, key: String) {
        #expect(ReadModelKeys.padded(value) == key)
    }

    @Test func paddedNumbersSortAsTheNumbersDoAndInvertedPositionsTheOtherWay() {
        let values: [UInt64] = [0, 1, 9, 10, 99, 100, 12_345, 1 << 40, UInt64.max - 1, UInt64.max]
        for (lower, higher) in zip(values, values.dropFirst()) {
            #expect(Array(ReadModelKeys.padded(lower).utf8).lexicographicallyPrecedes(Array(ReadModelKeys.padded(higher).utf8)))
            #expect(Array(ReadModelKeys.invertedPosition(higher).utf8).lexicographicallyPrecedes(Array(ReadModelKeys.invertedPosition(lower).utf8)))
        }
        #expect(ReadModelKeys.invertedPosition(0) == "18446744073709551615")
    }

    /// A list entry's key is its prefix then the inverted position, whatever the prefix holds
    /// (an empty one, a long one, non-ASCII).
    @Test(arguments: ["", "house-1/", "é%2Fü/", String(repeating: "p", count: 300)])
    func aNewestFirstKeyIsThePrefixThenTheInvertedPosition(prefix: String) {
        for position: UInt64 in [0, 1, 99, 100, 1_234_567_890_123, UInt64.max] {
            #expect(ReadModelKeys.newestFirst(prefix, position) == prefix + ReadModelKeys.invertedPosition(position))
        }
        #expect(ReadModelKeys.newestFirst("h/", 7) == "h/18446744073709551608")
    }

    /// The position is read back from a list entry's key, and only from a key made so.
    @Test(arguments: ["", "house-1/", "é%2Fü/", String(repeating: "p", count: 300)])
    func aNewestFirstKeyGivesItsPositionBack(prefix: String) {
        for position: UInt64 in [0, 1, 99, 100, 1_234_567_890_123, UInt64.max] {
            #expect(ReadModelKeys.position(ofNewestFirst: ReadModelKeys.newestFirst(prefix, position), prefix: prefix) == position)
        }
        let key = ReadModelKeys.newestFirst(prefix, 7)
        #expect(ReadModelKeys.position(ofNewestFirst: key, prefix: prefix + "x") == nil, "another prefix")
        #expect(ReadModelKeys.position(ofNewestFirst: String(key.dropLast()), prefix: prefix) == nil, "a digit short")
        #expect(ReadModelKeys.position(ofNewestFirst: key + "0", prefix: prefix) == nil, "a digit long")
        #expect(ReadModelKeys.position(ofNewestFirst: prefix + "1844674407370955160x", prefix: prefix) == nil, "not a number")
        #expect(ReadModelKeys.position(ofNewestFirst: prefix + "99999999999999999999", prefix: prefix) == nil, "past UInt64")
        #expect(ReadModelKeys.positions(ofNewestFirst: [key, ReadModelKeys.newestFirst(prefix, 3)], prefix: prefix) == [7, 3])
        #expect(ReadModelKeys.positions(ofNewestFirst: [key, prefix + "x"], prefix: prefix) == nil, "one not made so")
    }

    @Test(arguments: [
        ("3f2c9a4e-0000-4000-8000-000000000001", "3f2c9a4e-0000-4000-8000-000000000001"),
        ("a/b", "a%2Fb"), ("100%", "100%25"), ("%2F", "%252F"), ("", ""), ("é/ü", "é%2Fü"),
    ])
    func idsAreEscapedOnlyWhereTheyHoldASeparatorOrAPercent(id: String, component: String) {
        #expect(ReadModelKeys.component(id) == component)
    }

    @Test func escapedIdsNeverShareAPrefixWithAnotherId() {
        // Unescaped, "a/b"'s keys would sit under "a"'s prefix.
        #expect(!ReadModelKeys.component("a/b").hasPrefix(ReadModelKeys.component("a") + "/"))
    }
}

@Suite("Read-model tables")
struct ReadModelTablesTests {
    @Test func namesFindTheirHandlesAndUnknownNamesNone() {
        let first = Database(handle: 1, name: "p/0/a")
        let second = Database(handle: 2, name: "p/0/b")
        var tables: ReadModelTables = ["a": first, "b": second]
        #expect(tables["a"] == first && tables["b"] == second && tables["c"] == nil)
        tables["a"] = second
        #expect(tables["a"] == second && tables.databases.count == 2, "a name holds one handle")
        #expect(Set(tables.databases.map(\.name)) == ["p/0/b"])
    }
}

@Suite("Read-model writer")
struct ReadModelWriterTests {
    /// The writer encodes every value into one reused buffer and hands keys over from the
    /// string's own bytes: each put stores exactly its value under exactly its key.
    @Test func eachPutStoresItsOwnValueUnderItsOwnKey() throws {
        let path = NSTemporaryDirectory() + "read-model-writer-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: path) }
        let environment = try Environment(path: path, options: EnvironmentOptions(mapSizeBytes: 1 << 24, unsafeNoSync: true))
        let tables: ReadModelTables = ["t": try environment.openDatabase("t")]
        let long = String(repeating: "long value ", count: 200)
        let keys = ["a", "é/ü", "a/" + String(repeating: "k", count: 100), "b"]
        try environment.write { txn throws in
            let writer = ReadModelWriter(transaction: txn, projection: "p", tables: tables)
            try writer.put(long, at: keys[0], in: "t")
            try writer.put("short", at: keys[1], in: "t")
            try writer.put(42, at: keys[2], in: "t")
            try writer.put("", at: keys[3], in: "t")
            try writer.delete(keys[3], in: "t")
            try writer.delete(keys[3], in: "t")
            #expect(try writer.value(String.self, at: keys[3], in: "t") == nil, "deleted, and deleting it again is nothing")
        }
        try environment.read { txn throws in
            let reader = ReadModelReader(transaction: txn, projection: "p", tables: tables)
            #expect(try reader.value(String.self, at: keys[0], in: "t") == long)
            #expect(try reader.value(String.self, at: keys[1], in: "t") == "short", "not the long value's tail")
            #expect(try reader.value(Int.self, at: keys[2], in: "t") == 42)
            #expect(try reader.value(String.self, at: keys[3], in: "t") == nil)
            #expect(try reader.entries(String.self, in: "t", prefix: "é/", limit: 10).map(\.key) == ["é/ü"])
        }
    }
}
