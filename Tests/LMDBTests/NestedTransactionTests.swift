import Foundation
import LMDB
import Testing

private struct Refused: Error {}

/// A nested write transaction: its writes join the parent's when it returns, and vanish alone
/// when it throws, the parent going on to commit the rest.
@Suite("LMDB nested transactions", .timeLimit(.minutes(3)))
struct NestedTransactionTests {
    @Test func aFailedNestedTransactionUndoesOnlyItsOwnWrites() throws {
        let path = temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let environment = try Environment(path: path, options: EnvironmentOptions(unsafeNoSync: true))
        let things = try environment.openDatabase("things")
        try environment.write { txn in
            try txn.put(things, [1], [1])
            try txn.nested { child in
                #expect(try child.get(things, [1]).map(Array.init) == [1], "a nested transaction sees its parent's writes")
                try child.put(things, [2], [2])
            }
            #expect(throws: Refused.self) {
                try txn.nested { child in
                    try child.put(things, [3], [3])
                    try child.delete(things, [1])
                    throw Refused()
                }
            }
            #expect(try txn.get(things, [3]) == nil && txn.get(things, [1]).map(Array.init) == [1], "the parent goes on as before")
            #expect(throws: LMDBError.keySize(bytes: 0)) { try txn.nested { try $0.put(things, [], [9]) } }
            try txn.put(things, [4], [4])
        }
        let stored = try environment.read { txn in try [1, 2, 3, 4].map { try txn.get(things, [UInt8($0)]).map(Array.init) } }
        #expect(stored == [[1], [2], nil, [4]])
    }
}
