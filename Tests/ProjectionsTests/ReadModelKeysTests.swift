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
