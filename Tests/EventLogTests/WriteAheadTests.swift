import Foundation
import LMDB
import Testing
@testable import EventLog

/// The write-ahead mode (ADR 0006) piece by piece: its frame and checkpoint formats, a store
/// reopened in and out of the mode, and recovery from the states a failure can leave. The
/// crash and power-loss suites run it under `kill -9` and a modelled power failure.
@Suite("Write-ahead mode")
struct WriteAheadTests {
    /// Small write-ahead files: these tests run beside the rest of the suite.
    static let preallocatedBytes = 1 << 20

    static func puts(_ count: Int) -> [WriteAheadPut] {
        (0..<count).map { (index: Int) -> WriteAheadPut in
            let valueBytes: Int = index * 7 % 50
            let value: [UInt8] = (0..<valueBytes).map { (byte: Int) -> UInt8 in UInt8(truncatingIfNeeded: byte &* 31 &+ index) }
            return WriteAheadPut(table: LogTable(rawValue: UInt8(index % 9))!, key: Array("key-\(index)".utf8), value: value)
        }
    }

    @Test func aFrameReadsBackAsWrittenAndAnyCutOrChangedByteIsRefused() {
        let puts = Self.puts(12)
        let bytes = WriteAheadFrame.encode(sequence: 42, puts: puts)
        #expect(bytes.withUnsafeBytes { WriteAheadFrame.header($0)?.sequence } == 42)
        #expect(bytes.withUnsafeBytes { WriteAheadFrame.puts($0) } == puts)
        for cut in 0..<bytes.count {
            #expect(bytes.prefix(cut).withUnsafeBytes { WriteAheadFrame.puts($0) } == nil, "cut at \(cut)")
        }
        for index in bytes.indices {
            var changed = bytes
            changed[index] ^= 0x10
            #expect(changed.withUnsafeBytes { WriteAheadFrame.puts($0) } == nil, "byte \(index) changed")
        }
    }

    @Test func aTornCheckpointLeavesTheOneBeforeIt() throws {
        let directory = NSTemporaryDirectory() + "checkpoint-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let file = try WriteAheadCheckpointFile(directory: directory)
        let first = WriteAheadCheckpoint(generation: 1, sequence: 10, file: 0, bootID: "boot-a", metaPages: [UInt8](repeating: 1, count: 8192))
        let second = WriteAheadCheckpoint(generation: 2, sequence: 20, file: 1, bootID: "boot-b", metaPages: [UInt8](repeating: 2, count: 8192))
        try file.write(first)
        #expect(try file.latest() == first)
        try file.write(second)
        #expect(try file.latest() == second)
        // The newest slot torn half way: the one before it is what is left.
        let raw = try RawFile(path: directory + "/checkpoint", creating: false)
        try raw.write([UInt8](repeating: 0xEE, count: 4096), at: 0 * WriteAheadCheckpointFile.slotBytes + 2048)
        raw.close()
        #expect(try file.latest() == first)
    }

    /// A log written in the mode, reopened in it, then reopened without it: every event stays,
    /// the log verifies, and leaving the mode removes its files.
    @Test func aLogMovesInAndOutOfTheModeWithEverythingKept() async throws {
        let log = try TestLog(durable: true) {
            $0.writeAhead = true
            $0.writeAheadCommitsPerCheckpointMax = 7
            $0.writeAheadPolicy.preallocatedBytes = Self.preallocatedBytes
        }
        defer { log.remove() }
        for index in 0..<40 {
            _ = try await log.store.append(request([event("s-\(index % 3)")]))
        }
        log.store.close()
        let reopened = try log.reopen { $0.unsafeNoSync = false; $0.writeAhead = true; $0.writeAheadPolicy.preallocatedBytes = Self.preallocatedBytes }
        #expect(reopened.writeAheadRecovery == WriteAheadRecovery(restoredCheckpoint: false, replayedFrames: 0), "a clean close leaves nothing to replay")
        _ = try await reopened.append(request([event("s-0")]))
        reopened.close()
        let plain = try log.reopen { $0.unsafeNoSync = false }
        defer { plain.close() }
        #expect(!FileManager.default.fileExists(atPath: log.directory + "/log/wal-0"))
        #expect(!FileManager.default.fileExists(atPath: log.directory + "/log/wal-1"))
        #expect(!FileManager.default.fileExists(atPath: log.directory + "/log/checkpoint"))
        #expect(try plain.headPosition() == 41)
        #expect(try plain.verify().isHealthy)
    }

    /// The files as a power failure leaves them while the store is open: LMDB's file holds the
    /// commits since the checkpoint, or some of their pages, and its meta pages may name them.
    struct Leftover {
        let directory: String
        /// Offsets in `wal-0` where each frame ends, in order (no checkpoint moved them to `wal-1`).
        let frameEnds: [Int]
        let writerBoot: String
    }

    /// Appends `count` one-event commands in the mode with no checkpoint after the first, and
    /// copies the log's files while the store is still open (as a failure would find them).
    static func leftover(
        appending count: Int, mapSizeBytes: Int = 1 << 30,
        append: (LMDBEventStore, Int) async throws -> Void = { store, index in
            _ = try await store.append(request([event("s-\(index % 4)", tags: ["t:\(index % 5)"])]))
        }
    ) async throws -> Leftover {
        let boot = UUID().uuidString
        let log = try TestLog(durable: true) {
            $0.writeAhead = true
            $0.bootID = boot
            $0.mapSizeBytes = mapSizeBytes
            $0.writeAheadPolicy.commitsPerCheckpointMax = .max
            $0.writeAheadPolicy.idleCheckpointAfter = .seconds(3_600)
            $0.writeAheadPolicy.preallocatedBytes = Self.preallocatedBytes
        }
        defer { log.remove() }
        for index in 0..<count {
            try await append(log.store, index)
        }
        let copy = NSTemporaryDirectory() + "wal-leftover-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: copy + "/log", withIntermediateDirectories: true)
        for name in ["data.mdb", "wal-0", "wal-1", "checkpoint"] {
            try FileManager.default.copyItem(atPath: log.directory + "/log/" + name, toPath: copy + "/log/" + name)
        }
        var ends: [Int] = []
        let wal = try RawFile(path: copy + "/log/wal-0", creating: false)
        defer { wal.close() }
        var offset = 0
        for _ in 0..<count {
            let header = try wal.read(WriteAheadFrame.headerBytes, at: offset)
            let payloadBytes = try #require(header.withUnsafeBytes { WriteAheadFrame.header($0) }).payloadBytes
            offset += WriteAheadFrame.headerBytes + payloadBytes
            ends.append(offset)
        }
        return Leftover(directory: copy, frameEnds: ends, writerBoot: boot)
    }

    static func open(_ directory: String, boot: String) throws -> LMDBEventStore {
        var options = EventStoreOptions()
        options.writeAhead = true
        options.bootID = boot
        options.writeAheadPolicy.preallocatedBytes = preallocatedBytes
        return try LMDBEventStore(dataDirectory: directory, options: options)
    }

    /// Opens `directory` in `boot`, expects `recovery` of it, a log whose head is `head`, and a
    /// log that verifies.
    static func expectRecovered(
        _ directory: String, boot: String, _ recovery: WriteAheadRecovery, head: UInt64, sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        let store = try open(directory, boot: boot)
        defer { store.close() }
        #expect(store.writeAheadRecovery == recovery, sourceLocation: sourceLocation)
        #expect(try store.headPosition() == head, sourceLocation: sourceLocation)
        #expect(try store.verify().isHealthy, sourceLocation: sourceLocation)
    }

    @Test func afterAPowerFailureTheCheckpointIsPutBackAndTheFramesAfterItApplied() async throws {
        let leftover = try await Self.leftover(appending: 20)
        defer { try? FileManager.default.removeItem(atPath: leftover.directory) }
        try Self.expectRecovered(leftover.directory, boot: "after-restart", WriteAheadRecovery(restoredCheckpoint: true, replayedFrames: 20), head: 20)
    }

    @Test func afterACrashOfTheProcessAloneLMDBIsKeptAndNothingIsReplayed() async throws {
        let leftover = try await Self.leftover(appending: 20)
        defer { try? FileManager.default.removeItem(atPath: leftover.directory) }
        try Self.expectRecovered(leftover.directory, boot: leftover.writerBoot, WriteAheadRecovery(restoredCheckpoint: false, replayedFrames: 0), head: 20)
    }

    /// A frame being written when the power failed was never acknowledged: wherever it is cut,
    /// recovery applies the frames before it and the log verifies.
    @Test func aTornLastFrameIsLeftOut() async throws {
        let leftover = try await Self.leftover(appending: 12)
        defer { try? FileManager.default.removeItem(atPath: leftover.directory) }
        let pristine = leftover.directory + "-pristine"
        try FileManager.default.copyItem(atPath: leftover.directory, toPath: pristine)
        defer { try? FileManager.default.removeItem(atPath: pristine) }
        let lastStart = leftover.frameEnds[10], lastEnd = leftover.frameEnds[11]
        for cut in [lastStart + 1, lastStart + WriteAheadFrame.headerBytes, (lastStart + lastEnd) / 2, lastEnd - 1] {
            try FileManager.default.removeItem(atPath: leftover.directory)
            try FileManager.default.copyItem(atPath: pristine, toPath: leftover.directory)
            // The file is preallocated with zeros: a torn frame is its first bytes, then zeros.
            let wal = try RawFile(path: leftover.directory + "/log/wal-0", creating: false)
            try wal.write([UInt8](repeating: 0, count: lastEnd - cut), at: cut)
            wal.close()
            try Self.expectRecovered(leftover.directory, boot: "after-restart", WriteAheadRecovery(restoredCheckpoint: true, replayedFrames: 11), head: 11)
        }
    }

    /// A reader that opens the log read-only (`logbook-admin`) cannot recover it. After a restart
    /// of the machine with frames past the checkpoint, `data.mdb` may be torn, so the reader is
    /// refused and nothing is written; in the writer's own boot, and once a writable open has
    /// recovered the log (its last checkpoint then names no frame after it), it reads as usual.
    @Test func aReadOnlyOpenRefusesALogThatAwaitsRecoveryAfterARestart() async throws {
        let leftover = try await Self.leftover(appending: 5)
        defer { try? FileManager.default.removeItem(atPath: leftover.directory) }
        func readHead(boot: String) throws -> UInt64 {
            var options = EventStoreOptions()
            options.readOnly = true
            options.bootID = boot
            let store = try LMDBEventStore(dataDirectory: leftover.directory, options: options)
            defer { store.close() }
            return try store.headPosition()
        }
        let files = ["data.mdb", "wal-0", "wal-1", "checkpoint"].map { leftover.directory + "/log/" + $0 }
        func contents() throws -> [Data] { try files.map { try Data(contentsOf: URL(fileURLWithPath: $0)) } }

        #expect(try readHead(boot: leftover.writerBoot) == 5, "the page cache kept every write")
        let before = try contents()
        #expect(throws: EventLogError.unavailable(reason: LMDBEventStore.awaitsRecoveryReason)) {
            try readHead(boot: "after-restart")
        }
        #expect(try contents() == before, "the refused reader wrote nothing")

        try Self.expectRecovered(leftover.directory, boot: "after-restart", WriteAheadRecovery(restoredCheckpoint: true, replayedFrames: 5), head: 5)
        #expect(try readHead(boot: "after-restart") == 5)
        #expect(try readHead(boot: "a-later-restart") == 5, "closed with a checkpoint: nothing awaits recovery")
    }

    /// Recovery that stops after applying the frames but before its checkpoint (the power fails
    /// again) is run again from the same checkpoint, with the same outcome.
    @Test func recoveryInterruptedAfterItsReplayRunsAgain() async throws {
        let leftover = try await Self.leftover(appending: 15)
        defer { try? FileManager.default.removeItem(atPath: leftover.directory) }
        let path = leftover.directory + "/log"
        // The steps of the store's opening, stopped before the checkpoint that would end it.
        let restored = try WriteAheadLog.restoreAfterRestart(directory: path, bootID: "first-restart")
        let checkpoint = try #require(restored).checkpoint
        #expect(checkpoint.sequence == 0)
        do {
            let environment = try Environment(path: path, options: EnvironmentOptions())
            let pin = try environment.pinSnapshot()
            let databases = try LogDatabases(environment: environment)
            #expect(try WriteAheadLog.replay(directory: path, first: checkpoint.file, environment: environment, databases: databases) == 15)
            pin.release()
        }
        try Self.expectRecovered(leftover.directory, boot: "second-restart", WriteAheadRecovery(restoredCheckpoint: true, replayedFrames: 15), head: 15)
    }

    /// A batch bigger than LMDB's map runs again once the map has grown, and its frame is
    /// written again in the same place: the log recovers it once, whole.
    @Test func aBatchThatGrowsTheMapIsRecoveredOnce() async throws {
        let big = String(repeating: "x", count: 100_000)
        let leftover = try await Self.leftover(appending: 3, mapSizeBytes: 1 << 20) { store, index in
            let events = index == 1
                ? (0..<30).map { event("big-1", "test.big", #"{"n":\#($0),"padding":"\#(big)"}"#) }
                : [event("small-1")]
            _ = try await store.append(request(events))
        }
        defer { try? FileManager.default.removeItem(atPath: leftover.directory) }
        let store = try Self.open(leftover.directory, boot: "after-restart")
        defer { store.close() }
        #expect(store.writeAheadRecovery == WriteAheadRecovery(restoredCheckpoint: true, replayedFrames: 3))
        #expect(try store.headPosition() == 32)
        #expect(try store.readStream("big-1", limit: 100).count == 30)
        #expect(try store.verify().isHealthy)
    }

    /// A checkpoint that had begun (frames after it going to the other file) and not ended:
    /// recovery reads the frames of the last checkpoint's file, then those of the other file
    /// that follow them.
    @Test func recoveryFollowsTheFramesIntoTheOtherFile() async throws {
        let leftover = try await Self.leftover(appending: 10)
        defer { try? FileManager.default.removeItem(atPath: leftover.directory) }
        // Frames 7…10 as the writer would have put them after moving to wal-1.
        let wal0 = try RawFile(path: leftover.directory + "/log/wal-0", creating: false)
        let moved = try wal0.read(leftover.frameEnds[9] - leftover.frameEnds[5], at: leftover.frameEnds[5])
        try wal0.write([UInt8](repeating: 0, count: moved.count), at: leftover.frameEnds[5])
        wal0.close()
        let wal1 = try RawFile(path: leftover.directory + "/log/wal-1", creating: false)
        try wal1.write(moved, at: 0)
        wal1.close()
        try Self.expectRecovered(leftover.directory, boot: "after-restart", WriteAheadRecovery(restoredCheckpoint: true, replayedFrames: 10), head: 10)
    }

    /// A checkpoint whose copy of the meta pages is not LMDB's (intact, but written by something
    /// else or another version) is refused before anything is written over `data.mdb`.
    @Test func aCheckpointWhoseMetaPagesAreNotLMDBsIsRefusedAndTouchesNothing() async throws {
        let leftover = try await Self.leftover(appending: 3)
        defer { try? FileManager.default.removeItem(atPath: leftover.directory) }
        let path = leftover.directory + "/log"
        let checkpoints = try WriteAheadCheckpointFile(directory: path)
        try checkpoints.write(WriteAheadCheckpoint(
            generation: 99, sequence: 0, file: 0, bootID: "before", metaPages: [UInt8](repeating: 0xAB, count: 8_192)))
        checkpoints.close()
        let before = FileManager.default.contents(atPath: path + "/data.mdb")
        #expect(throws: EventLogError.self) { try Self.open(leftover.directory, boot: "after-restart") }
        #expect(FileManager.default.contents(atPath: path + "/data.mdb") == before)
    }
}
