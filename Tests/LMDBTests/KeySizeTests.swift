import Foundation
import LMDB
import Testing

/// Keys LMDB cannot store (empty, or longer than `keyBytesMax`) never reach it: lookups and
/// writes throw `.keySize` naming the length, and seeks answer where the key would sort.
@Suite("LMDB key sizes")
struct KeySizeTests {
    let path = temporaryDirectory()

    private func open() throws -> (Environment, Database) {
        let environment = try Environment(path: path, options: EnvironmentOptions(unsafeNoSync: true))
        return (environment, try environment.openDatabase("things"))
    }

    @Test func theLimitIsLMDBsOwn() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, _) = try open()
        // 511 in a default build of liblmdb (MDB_MAXKEYSIZE); the 600-character inputs
        // and the tests below rely on it being well under that.
        #expect(environment.keyBytesMax == 511)
        try environment.read { txn in
            #expect(txn.keyBytesMax == environment.keyBytesMax)
            #expect(!txn.canStore(keyBytes: 0) && txn.canStore(keyBytes: 1))
            #expect(txn.canStore(keyBytes: environment.keyBytesMax) && !txn.canStore(keyBytes: environment.keyBytesMax + 1))
        }
    }

    @Test(arguments: [0, 512, 600, 100_000])
    func unstorableKeysAreATypedErrorForGetPutAndDelete(bytes: Int) throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open()
        let key = [UInt8](repeating: 0x61, count: bytes)
        #expect(throws: LMDBError.keySize(bytes: bytes)) { try environment.read { try $0.get(things, key) } }
        try environment.write { txn in
            #expect(throws: LMDBError.keySize(bytes: bytes)) { try txn.get(things, key) }
            #expect(throws: LMDBError.keySize(bytes: bytes)) { try txn.put(things, key, [1]) }
            #expect(throws: LMDBError.keySize(bytes: bytes)) { try txn.delete(things, key) }
            // LMDB never saw the key, so the transaction is as good as before.
            try txn.put(things, [7], [7])
        }
        #expect(try environment.read { try $0.get(things, [7]).map(Array.init) } == [7], "the transaction still committed")
        #expect(LMDBError.keySize(bytes: bytes).description.contains("\(bytes) bytes"))
    }

    @Test func theLongestStorableKeyIsStored() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open()
        let longest = [UInt8](repeating: 0x62, count: environment.keyBytesMax)
        try environment.write { try $0.put(things, longest, [1]) }
        #expect(try environment.read { try $0.get(things, longest).map(Array.init) } == [1])
        #expect(try environment.write { try $0.delete(things, longest) })
    }

    /// Every seek, with storable and unstorable keys, against the order Swift itself computes.
    @Test func seeksTakeAnyKeyAndAnswerWhereItWouldSort() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open()
        let limit = environment.keyBytesMax
        let run = { (byte: UInt8, count: Int) in [UInt8](repeating: byte, count: count) }
        // Keys crowding the limit: the longest key with a long key's head, its neighbours, a
        // shorter prefix of it, and keys before and after the run.
        let stored: [[UInt8]] = [
            [0x01], run(0x05, 300), run(0x05, limit), run(0x05, limit - 1) + [0x06], run(0x05, limit - 1) + [0x04], [0x09],
        ]
        try environment.write { txn in
            for key in stored { try txn.put(things, key, [UInt8(truncatingIfNeeded: key.count)]) }
        }
        let probes: [[UInt8]] = [
            [], [0x00], run(0x05, limit + 1), run(0x05, limit) + [0x00], run(0x05, limit - 1) + [0x04, 0xFF], run(0x05, 600),
            run(0x05, limit - 1) + [0x06] + run(0xFF, 100), run(0x04, 700), run(0x06, 700), run(0x09, 512), run(0xFF, 512),
        ]
        let sorted = stored.sorted { $0.lexicographicallyPrecedes($1) }
        try environment.read { txn throws in
            try txn.withCursor(things) { cursor throws in
                for probe in probes {
                    let after = sorted.first { !$0.lexicographicallyPrecedes(probe) }
                    let before = sorted.last { !probe.lexicographicallyPrecedes($0) }
                    #expect(try cursor.seek(atOrAfter: probe).map { Array($0.key) } == after, "at or after \(probe.count) bytes")
                    #expect(try cursor.seek(atOrBefore: probe).map { Array($0.key) } == before, "at or before \(probe.count) bytes")
                }
            }
        }
        // The seek lands on a real entry: walking on from it is the usual walk.
        try environment.read { txn throws in
            try txn.withCursor(things) { cursor throws in
                #expect(try cursor.seek(atOrAfter: run(0x05, 600)).map { Array($0.key) } == run(0x05, limit - 1) + [0x06])
                #expect(try cursor.next().map { Array($0.key) } == [0x09])
                #expect(try cursor.seek(atOrBefore: run(0x05, 600)).map { Array($0.key) } == run(0x05, limit))
                #expect(try cursor.previous().map { Array($0.key) } == run(0x05, limit - 1) + [0x04])
            }
        }
    }
}
