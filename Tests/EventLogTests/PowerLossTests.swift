import Foundation
import TestSupport
import Testing
@testable import EventLog

/// Durability against power loss, not only a killed process: the crash writer appends from four
/// writers under an `LD_PRELOAD` shim (`Tests/PowerLossShim/powerloss.c`) that keeps, beside the
/// log's `data.mdb`, what a power failure would leave of it (only writes an fsync, an fdatasync
/// or an `O_DSYNC` descriptor made durable), and lists the writes not yet synced. It is killed at
/// a random moment; a random half of those unsynced writes is let through (a disk may have
/// written some of its cache), and the next round starts from that image, as a machine would
/// after the power came back; at the end the log must verify and hold every acknowledged append.
@Suite("Power loss", .timeLimit(.minutes(3)))
struct PowerLossTests {
    /// The shim, compiled once per test process with the toolchain's C compiler.
    static let shim = Task { try await buildShim() }

    struct CompileFailed: Error, CustomStringConvertible {
        let description: String
    }

    static func buildShim() async throws -> String {
        let source = PackageFiles.root.appendingPathComponent("Tests/PowerLossShim/powerloss.c").path
        let library = NSTemporaryDirectory() + "powerloss-" + UUID().uuidString + ".so"
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin"
        guard let compiler = ["clang", "cc"].lazy.flatMap({ name in path.split(separator: ":").map { "\($0)/\(name)" } })
            .first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            throw CompileFailed(description: "no C compiler (clang or cc) on PATH")
        }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: compiler)
        process.arguments = ["-shared", "-fPIC", "-O1", "-Wall", "-o", library, source, "-ldl", "-lpthread"]
        try await process.runToExit()
        guard process.terminationStatus == 0 else { throw CompileFailed(description: "\(compiler) exited \(process.terminationStatus)") }
        return library
    }

    /// One power failure: the writer runs under the shim for `killAfter`, is killed, and the
    /// durable image, with each unsynced write let through at even odds when
    /// `keepingUnsyncedWrites`, replaces the file. Returns the acknowledgements, how many writes
    /// were not synced at the failure, and whether the image differs from the file the process
    /// left (the failure lost something).
    /// With `writeAhead`, the crash writer runs in the write-ahead mode (ADR 0006) in a boot of
    /// its own (as after a restart), checkpointing every `checkpointCommits` commits, and its
    /// `wal-0`, `wal-1` and `checkpoint` files lose their unsynced writes too.
    func runUntilPowerFails(
        directory: String, killAfter: Duration, keepingUnsyncedWrites: Bool = true, unsafeNoSync: Bool = false,
        mode: DurableMode = .syncing, checkpointCommits: Int = 16
    ) async throws -> (acks: [(UInt64, UUID)], unsynced: Int, lostWrites: Bool) {
        let writeAhead = mode.writeAhead
        let files = (["data.mdb"] + (writeAhead ? ["wal-0", "wal-1", "checkpoint"] : [])).map { directory + "/log/" + $0 }
        var environment = ProcessInfo.processInfo.environment
        environment["LD_PRELOAD"] = try await Self.shim.value
        environment["POWERLOSS_FILES"] = files.joined(separator: ":")
        if unsafeNoSync { environment["LOGBOOK_CRASH_WRITER_UNSAFE_NO_SYNC"] = "1" }
        mode.configure(&environment)
        if writeAhead {
            environment["LOGBOOK_CRASH_WRITER_CHECKPOINT_COMMITS"] = String(checkpointCommits)
            environment["LOGBOOK_CRASH_WRITER_BOOT_ID"] = UUID().uuidString
        }
        let acks = try await CrashWriterRun.untilKilled(log: directory, environment: environment, killAfter: killAfter)

        var unsyncedCount = 0, lost = false
        for file in files where FileManager.default.fileExists(atPath: file + ".durable") {
            let durable = file + ".durable"
            let unsynced = try Self.unsyncedWrites(file + ".pending")
            unsyncedCount += unsynced.count
            if keepingUnsyncedWrites {
                let image = try FileHandle(forWritingTo: URL(fileURLWithPath: durable))
                for write in unsynced where Bool.random() {
                    try image.seek(toOffset: write.offset)
                    try image.write(contentsOf: write.bytes)
                }
                try image.close()
            }
            try FileManager.default.removeItem(atPath: file + ".pending")
            if FileManager.default.contents(atPath: file) != FileManager.default.contents(atPath: durable) { lost = true }
            try FileManager.default.removeItem(atPath: file)
            try FileManager.default.moveItem(atPath: durable, toPath: file)
        }
        return (acks, unsyncedCount, lost)
    }

    /// The shim's list of writes not synced when the process died, in the order they were made.
    static func unsyncedWrites(_ journal: String) throws -> [(offset: UInt64, bytes: Data)] {
        let data = try Data(contentsOf: URL(fileURLWithPath: journal))
        var writes: [(offset: UInt64, bytes: Data)] = []
        var at = data.startIndex
        func number() -> UInt64 {
            defer { at += 8 }
            return data[at..<at + 8].reversed().reduce(0) { $0 << 8 | UInt64($1) }
        }
        while data.endIndex - at >= 16 {
            let offset = number(), length = Int(number())
            // The entry being written when the process died may be cut short: it never happened.
            guard data.endIndex - at >= length else { break }
            writes.append((offset, data[at..<at + length]))
            at += length
        }
        return writes
    }

    /// Both ways of making an append durable: LMDB syncing each commit, and the write-ahead mode,
    /// where LMDB commits without syncing and recovery must put the last checkpoint back; and the
    /// write-ahead mode with the index tail, whose entries and `meta` key recovery replays too.
    @Test(arguments: DurableMode.allCases)
    func everyAcknowledgedAppendSurvivesPowerFailuresAtRandomMoments(mode: DurableMode) async throws {
        let writeAhead = mode.writeAhead
        let directory = NSTemporaryDirectory() + "powerloss-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        var acknowledged: [UInt64: UUID] = [:]
        var failuresThatLostWrites = 0, unsyncedWrites = 0, checkpointsRestored = 0, framesReplayed = 0
        var tailsRecovered: [Int] = []
        for round in 0..<8 {
            let (acks, unsynced, lost) = try await runUntilPowerFails(
                directory: directory, killAfter: .milliseconds(Int.random(in: 100...400)), mode: mode)
            #expect(acks.count > 0, "round \(round) appended something before the power failed")
            if lost { failuresThatLostWrites += 1 }
            if writeAhead {
                // Recovery after the power came back, as the next start would run it.
                var options = EventStoreOptions()
                options.writeAhead = true
                options.indexTail.eventsMax = mode.indexTailEventsMax
                options.bootID = UUID().uuidString
                let store = try LMDBEventStore(dataDirectory: directory, options: options)
                let recovery = try #require(store.writeAheadRecovery)
                if recovery.restoredCheckpoint { checkpointsRestored += 1 }
                framesReplayed += recovery.replayedFrames
                tailsRecovered.append(try store.indexTail().count)
                let report = try store.verify()
                #expect(report.isHealthy, "round \(round), after recovery: \(report.problems)")
                store.close()
            }
            unsyncedWrites += unsynced
            for (position, id) in acks {
                // A position acknowledged in an earlier round is never handed out again.
                #expect(acknowledged[position] == nil, "position \(position) acknowledged twice")
                acknowledged[position] = id
            }
        }
        #expect(failuresThatLostWrites > 0 && unsyncedWrites > 0, "the injector dropped writes not yet synced (else this proves nothing)")
        if writeAhead {
            // Each start after a failure put a checkpoint back and applied the frames after it.
            #expect(checkpointsRestored == 8 && framesReplayed > 0, "restored \(checkpointsRestored), replayed \(framesReplayed)")
        }
        if mode.indexTailEventsMax > 0 {
            #expect(tailsRecovered.contains { $0 > 0 }, "a failure landed while events waited for their index entries: \(tailsRecovered)")
        }
        let store = try LMDBEventStore(dataDirectory: directory)
        defer { store.close() }
        let report = try store.verify()
        #expect(report.isHealthy, "\(report.problems)")
        for (position, id) in acknowledged {
            #expect(try store.event(at: position)?.commandID == id, "acknowledged position \(position) survived")
        }
        for writer in 0..<4 {
            var versions: [UInt64] = []
            while case let page = try store.readStream("crash-\(writer)", from: UInt64(versions.count), limit: 1_000), !page.isEmpty {
                versions += page.map(\.streamVersion)
            }
            #expect(versions == Array(0..<UInt64(versions.count)), "writer \(writer)'s stream is gap-free")
        }
    }

    /// The injector is not vacuous: a log that skips its syncs loses acknowledged appends to it.
    @Test func aLogThatDoesNotSyncLosesAcknowledgedAppendsToThePowerFailure() async throws {
        let directory = NSTemporaryDirectory() + "powerloss-nosync-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let (acks, _, lost) = try await runUntilPowerFails(
            directory: directory, killAfter: .milliseconds(300), keepingUnsyncedWrites: false, unsafeNoSync: true)
        #expect(acks.count > 0 && lost)
        let store = try? LMDBEventStore(dataDirectory: directory)
        defer { store?.close() }
        let survived = acks.filter { position, id in
            guard let store, let event = try? store.event(at: position) else { return false }
            return event.commandID == id
        }.count
        #expect(survived < acks.count, "\(survived) of \(acks.count) acknowledged appends survived without syncs")
    }
}
