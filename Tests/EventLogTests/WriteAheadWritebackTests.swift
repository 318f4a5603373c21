import Foundation
import Testing
@testable import EventLog

/// The write-ahead mode starts the writeback of LMDB's unsynced pages after each commit, so that
/// its checkpoints' syncs find little left to write (docs/benchmarks.md, issue 17). Observed in
/// the kernel's own page flags (`DirtyPages`).
@Suite("Write-ahead mode: early writeback", .enabled(if: DirtyPages.observable, "reading page flags needs root"), .timeLimit(.minutes(3)))
struct WriteAheadWritebackTests {
    /// Given a file with freshly written pages, when the starter runs, none is dirty any more;
    /// the same check saw every one dirty before, so it can tell.
    @Test func aStartHandsEveryDirtyPageOfTheFileToTheDevice() throws {
        let path = NSTemporaryDirectory() + "writeback-" + UUID().uuidString
        let file = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        try #require(file >= 0)
        defer { close(file); unlink(path) }
        let bytes = [UInt8](repeating: 0x5a, count: 64 * DirtyPages.pageBytes)
        try #require(pwrite(file, bytes, bytes.count, 0) == bytes.count)
        #expect(try DirtyPages.count(path: path) == 64, "written, not yet synced")
        let starter = WritebackStarter(descriptor: file)
        starter.start()
        starter.finish()
        #expect(try DirtyPages.count(path: path) == 0)
    }

    /// Given two logs in the mode with no checkpoint after the first, when the same commits go to
    /// each, the one starting its writeback early soon has no dirty page in `data.mdb`, and the
    /// one that leaves them to its checkpoints still has them.
    @Test func theModeStartsTheWritebackOfEveryCommit() async throws {
        func log(early: Bool) throws -> TestLog {
            try TestLog(durable: true) {
                $0.writeAhead = true
                $0.writeAheadPolicy.commitsPerCheckpointMax = .max
                $0.writeAheadPolicy.idleCheckpointAfter = .seconds(3_600)
                $0.writeAheadPolicy.preallocatedBytes = WriteAheadTests.preallocatedBytes
                $0.writeAheadPolicy.commitsPerWritebackStart = early ? 1 : 0
            }
        }
        let early = try log(early: true), late = try log(early: false)
        defer { early.remove(); late.remove() }
        for index in 0..<40 {
            for log in [early, late] {
                _ = try await log.store.append(request([event("s-\(index % 5)", tags: ["t:\(index % 3)"])]))
            }
        }
        #expect(try DirtyPages.count(path: late.directory + "/log/data.mdb") > 0, "without it the commits wait for a checkpoint")
        let deadline = ContinuousClock.now + .seconds(30)
        var dirty = try DirtyPages.count(path: early.directory + "/log/data.mdb")
        while dirty > 0 && ContinuousClock.now < deadline {
            try await Task.sleep(for: .milliseconds(20))
            dirty = try DirtyPages.count(path: early.directory + "/log/data.mdb")
        }
        #expect(dirty == 0, "every commit's pages, the last one's too, handed to the device")
    }
}
