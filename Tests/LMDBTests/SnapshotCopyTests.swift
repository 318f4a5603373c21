import Foundation
import LMDB
import Synchronization
import Testing

/// `copySnapshot`: a hot copy of one read transaction while a writer goes on committing.
@Suite("LMDB snapshot copy", .timeLimit(.minutes(2)))
struct SnapshotCopyTests {
    /// Key `i` as four big-endian bytes, so cursor order is number order.
    private static func key(_ i: UInt32) -> [UInt8] { withUnsafeBytes(of: i.bigEndian) { Array($0) } }

    @Test func aCopyTakenWhileAWriterCommitsIsOneCommittedStateHoldingEverythingCommittedBefore() async throws {
        // The copier and the writer each on a thread of their own: on the cooperative pool a
        // busy machine left the test unscheduled while the writer ran to its end, and nothing raced.
        try await Self.onThreadOfItsOwn(Self.copyWhileAWriterCommits)
    }

    private static func copyWhileAWriterCommits() throws {
        let source = temporaryDirectory(), target = temporaryDirectory()
        defer {
            try? FileManager.default.removeItem(atPath: source)
            try? FileManager.default.removeItem(atPath: target)
        }
        let environment = try Environment(path: source, options: EnvironmentOptions(unsafeNoSync: true))
        let things = try environment.openDatabase("things")
        // 20 MB in one transaction first, so the copy takes long enough for commits to land during it.
        let bulkKeys: UInt32 = 20_000
        try environment.write { txn in
            for next in 0..<bulkKeys { try txn.put(things, Self.key(next), Array(repeating: UInt8(truncatingIfNeeded: next), count: 1_024)) }
        }
        let progress = WriterProgress(committed: bulkKeys)
        // Then one key per transaction, in order: a copy of one transaction holds keys 0..<n exactly.
        let writer = Thread {
            var next = bulkKeys
            while !progress.stop.load(ordering: .acquiring) && next < bulkKeys + 200_000 {
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
            while !progress.finished.load(ordering: .acquiring) { usleep(1_000) }
        }
        while progress.committed.load(ordering: .acquiring) < bulkKeys + 100 { usleep(100) }
        let before = progress.committed.load(ordering: .acquiring)
        let bytes = try environment.copySnapshot(toDirectory: target)
        let after = progress.committed.load(ordering: .acquiring)
        progress.stop.store(true, ordering: .releasing)
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

    /// Runs `body` on a new thread and waits for it without holding one of the pool's.
    private static func onThreadOfItsOwn(_ body: @escaping @Sendable () throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            Thread.detachNewThread { continuation.resume(with: Result { try body() }) }
        }
    }

    /// What the writer thread has committed, and when it is to stop.
    private final class WriterProgress: Sendable {
        let committed: Atomic<UInt32>
        let stop = Atomic<Bool>(false)
        let finished = Atomic<Bool>(false)

        init(committed: UInt32) { self.committed = Atomic(committed) }
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
