import Foundation
import LMDB
import Synchronization
import Testing

/// `copySnapshot`: a hot copy of one read transaction while a writer goes on committing.
@Suite("LMDB snapshot copy", .timeLimit(.minutes(2)))
struct SnapshotCopyTests {
    /// Key `i` as four big-endian bytes, so cursor order is number order.
    private static func key(_ i: UInt32) -> [UInt8] { withUnsafeBytes(of: i.bigEndian) { Array($0) } }

    @Test func aCopyTakenWhileAWriterCommitsIsOneCommittedStateHoldingEverythingCommittedBefore() throws {
        let source = temporaryDirectory(), target = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: source)
            try? FileManager.default.removeItem(atPath: target)
        }
        let environment = try Environment(path: source, options: EnvironmentOptions(unsafeNoSync: true))
        let things = try environment.openDatabase("things")
        let progress = WriterProgress()
        // One key per transaction, in order: a copy of one transaction holds keys 0..<n exactly.
        let writer = Thread {
            var next: UInt32 = 0
            while !progress.stop.load(ordering: .acquiring) && next < 200_000 {
                try! environment.write { try $0.put(things, Self.key(next), Array(repeating: UInt8(truncatingIfNeeded: next), count: 64)) }
                next += 1
                progress.committed.store(next, ordering: .releasing)
            }
            progress.finished.store(true, ordering: .releasing)
        }
        writer.start()
        defer {
            progress.stop.store(true, ordering: .releasing)
            // The writer's environment must not close under a commit in progress.
            while !progress.finished.load(ordering: .acquiring) { Thread.sleep(forTimeInterval: 0.001) }
        }
        while progress.committed.load(ordering: .acquiring) < 2_000 { Thread.sleep(forTimeInterval: 0.001) }
        let before = progress.committed.load(ordering: .acquiring)
        let bytes = try environment.copySnapshot(toDirectory: target)
        let after = progress.committed.load(ordering: .acquiring)
        #expect(after > before, "the writer went on while the copy ran")

        let copy = try Environment(path: target, options: EnvironmentOptions(readOnly: true))
        let copied = try copy.openDatabase("things", create: false)
        let keys = try copy.read { txn in
            try txn.withCursor(copied) { cursor in
                var keys: [UInt32] = []
                var entry = try cursor.first()
                while let (key, _) = entry {
                    keys.append(UInt32(bigEndian: key.loadUnaligned(as: UInt32.self)))
                    entry = try cursor.next()
                }
                return keys
            }
        }
        #expect(keys.count >= Int(before), "every commit before the copy began is in it")
        #expect(keys.count <= Int(after) + 1, "nothing the writer had not committed by the end")
        #expect(keys == (0..<UInt32(keys.count)).map { $0 }, "one committed state: a prefix of the commits, without holes")
        let size = try #require(try FileManager.default.attributesOfItem(atPath: target + "/data.mdb")[.size] as? Int)
        #expect(bytes == size && bytes > 0)
    }

    /// What the writer thread has committed, and when it is to stop.
    private final class WriterProgress: Sendable {
        let committed = Atomic<UInt32>(0)
        let stop = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)
    }

    @Test func aCopyNeverOverwritesAnExistingFile() throws {
        let source = temporaryDirectory(), target = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: source)
            try? FileManager.default.removeItem(atPath: target)
        }
        let environment = try Environment(path: source, options: EnvironmentOptions(unsafeNoSync: true))
        let things = try environment.openDatabase("things")
        try environment.write { try $0.put(things, [1], [1]) }
        _ = FileManager.default.createFile(atPath: target + "/data.mdb", contents: Data("precious".utf8))
        #expect(throws: LMDBError.system(errno: EEXIST)) { try environment.copySnapshot(toDirectory: target) }
        #expect(FileManager.default.contents(atPath: target + "/data.mdb") == Data("precious".utf8))
        #expect(throws: LMDBError.self) { try environment.copySnapshot(toDirectory: target + "/missing") }
    }
}
