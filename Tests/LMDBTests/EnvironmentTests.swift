import Foundation
import LMDB
import Testing

/// A fresh directory under the system temp dir, removed by the caller's `defer`.
func temporaryDirectory() -> String {
    let path = NSTemporaryDirectory() + "lmdb-tests-" + UUID().uuidString
    try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}

private struct Planned: Error {}

@Suite("LMDB wrapper", .timeLimit(.minutes(3)))
struct EnvironmentTests {
    let path = temporaryDirectory()

    private func open(_ options: EnvironmentOptions = EnvironmentOptions(unsafeNoSync: true)) throws -> (Environment, Database) {
        let environment = try Environment(path: path, options: options)
        return (environment, try environment.openDatabase("things"))
    }

    @Test func putGetDeleteRoundTrip() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open()
        try environment.write { txn in
            try txn.put(things, [1], [10, 11])
            #expect(try txn.get(things, [1]).map(Array.init) == [10, 11], "a write transaction sees its own writes")
        }
        #expect(try environment.read { try $0.get(things, [1]).map(Array.init) } == [10, 11])
        #expect(try environment.write { try $0.delete(things, [1]) })
        #expect(try environment.write { try $0.delete(things, [1]) } == false)
        #expect(try environment.read { try $0.get(things, [1]) } == nil)
    }

    @Test func throwingBodyAbortsTheTransaction() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open()
        #expect(throws: Planned.self) {
            try environment.write { txn in
                try txn.put(things, [1], [1])
                throw Planned()
            }
        }
        #expect(try environment.read { try $0.get(things, [1]) } == nil)
    }

    @Test func noOverwriteAndAppendFlagsAreEnforced() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open()
        try environment.write { try $0.put(things, [5], [1]) }
        #expect(throws: LMDBError.keyExists) { try environment.write { try $0.put(things, [5], [2], flags: .noOverwrite) } }
        #expect(throws: LMDBError.keyExists) { try environment.write { try $0.put(things, [4], [2], flags: .append) } }
        try environment.write { try $0.put(things, [6], [2], flags: .append) }
    }

    @Test func cursorWalksAndSeeksInKeyOrder() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open()
        try environment.write { txn in
            for key: UInt8 in [30, 10, 20] { try txn.put(things, [key], [key]) }
        }
        try environment.read { txn throws in
            try txn.withCursor(things) { cursor throws in
                #expect(try cursor.first().map { Array($0.key) } == [10])
                #expect(try cursor.next().map { Array($0.key) } == [20])
                #expect(try cursor.last().map { Array($0.key) } == [30])
                #expect(try cursor.previous().map { Array($0.value) } == [20])
                #expect(try cursor.seek(atOrAfter: [15]).map { Array($0.key) } == [20])
                #expect(try cursor.seek(atOrAfter: [31]) == nil)
                #expect(try cursor.seek(atOrBefore: [25]).map { Array($0.key) } == [20])
                #expect(try cursor.seek(atOrBefore: [20]).map { Array($0.key) } == [20])
                #expect(try cursor.seek(atOrBefore: [99]).map { Array($0.key) } == [30])
                #expect(try cursor.seek(atOrBefore: [5]) == nil)
                #expect(try cursor.seek(atOrAfter: []).map { Array($0.key) } == [10], "the empty key sorts first")
                #expect(try cursor.seek(atOrBefore: []) == nil)
            }
        }
    }

    @Test func fullMapGrowsAndTheWriteSucceeds() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open(EnvironmentOptions(mapSizeBytes: 64 << 10, mapSizeMaxBytes: 64 << 20, unsafeNoSync: true))
        let value = [UInt8](repeating: 7, count: 4_000)
        try environment.write { txn in
            for key in 0..<200 { try txn.put(things, withUnsafeBytes(of: UInt32(key).bigEndian, Array.init), value) }
        }
        #expect(environment.info().mapSizeBytes > 64 << 10)
        #expect(try environment.read { try $0.statistics(things).entries } == 200)
    }

    @Test func mapAtItsMaximumIsAnErrorNotACrash() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open(EnvironmentOptions(mapSizeBytes: 64 << 10, mapSizeMaxBytes: 128 << 10, unsafeNoSync: true))
        let value = [UInt8](repeating: 7, count: 4_000)
        #expect(throws: LMDBError.mapFull) {
            try environment.write { txn in
                for key in 0..<200 { try txn.put(things, withUnsafeBytes(of: UInt32(key).bigEndian, Array.init), value) }
            }
        }
        try environment.write { try $0.put(things, [1], [1]) }
    }

    @Test func readOnlyEnvironmentSeesAnotherHandlesCommits() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (writer, things) = try open()
        try writer.write { try $0.put(things, [1], [1]) }
        let reader = try Environment(path: path, options: EnvironmentOptions(readOnly: true))
        let readOnlyThings = try reader.openDatabase("things", create: false)
        #expect(try reader.read { try $0.get(readOnlyThings, [1]).map(Array.init) } == [1])
        try writer.write { try $0.put(things, [2], [2]) }
        #expect(try reader.read { try $0.get(readOnlyThings, [2]).map(Array.init) } == [2])
        #expect(throws: LMDBError.notFound) { try reader.openDatabase("absent", create: false) }
    }

    @Test func theDataFilesDescriptorIsThatOfDataMdb() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, _) = try open()
        var opened = stat(), named = stat()
        #expect(fstat(try environment.dataFileDescriptor(), &opened) == 0)
        #expect(stat(path + "/data.mdb", &named) == 0)
        #expect(opened.st_ino == named.st_ino && opened.st_dev == named.st_dev)
    }

    @Test func missingDirectoryIsAnErrorForReadOnly() {
        #expect(throws: LMDBError.self) {
            try Environment(path: path + "/nowhere", options: EnvironmentOptions(readOnly: true))
        }
    }

    @Test func clearEmptiesADatabase() throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open()
        try environment.write { txn in
            for key: UInt8 in 0..<10 { try txn.put(things, [key], []) }
            try txn.clear(things)
        }
        #expect(try environment.read { try $0.statistics(things).entries } == 0)
    }

    @Test func errorCodesRoundTrip() {
        for code in Int32(-30799)...Int32(-30780) {
            #expect(LMDBError(code: code).code == code)
        }
        #expect(LMDBError(code: ENOENT) == .system(errno: ENOENT))
        #expect(LMDBError.mapFull.description.contains("MDB_MAP_FULL"))
    }

    @Test func concurrentReadersAndOneWriterDoNotDeadlock() async throws {
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (environment, things) = try open(EnvironmentOptions(mapSizeBytes: 64 << 10, mapSizeMaxBytes: 256 << 20, unsafeNoSync: true))
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for key in 0..<2_000 {
                    try environment.write { try $0.put(things, withUnsafeBytes(of: UInt32(key).bigEndian, Array.init), [UInt8](repeating: 1, count: 500)) }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<500 { _ = try environment.read { try $0.statistics(things).entries } }
                }
            }
            try await group.waitForAll()
        }
        #expect(try environment.read { try $0.statistics(things).entries } == 2_000)
    }
}
