import Foundation
import Testing
@testable import EventLog

/// Damage LMDB itself meets: a branch page of the `events` B-tree pointing at a page past the
/// file's end. Walking into it fails (`MDB_PAGE_NOTFOUND`); verify must report that as a finding,
/// with where it stopped, and fail, instead of ending its walk quietly as if the log ended there.
@Suite("Page damage", .timeLimit(.minutes(3)))
struct PageDamageTests {
    /// A log of 60 events of about 1 KB, whose `events` tree is a branch over some 20 leaves,
    /// closed, with the branch's second child pointer aimed past the end of the file.
    private func damagedLog() async throws -> TestLog {
        let log = try TestLog()
        let data = #"{"text":"\#(String(repeating: "x", count: 1_000))"}"#
        for index in 0..<60 { _ = try await log.store.append(request([event("s-\(index % 4)", "test.happened", data)])) }
        log.store.close()
        try aimSecondEventsChildPastTheEnd(of: log.directory + "/log/data.mdb")
        return log
    }

    @Test func aPageReadFailingMidWalkIsAFinding() async throws {
        let log = try await damagedLog()
        defer { try? FileManager.default.removeItem(atPath: log.directory) }
        let store = try log.reopen { $0.readOnly = true }
        defer { store.close() }
        let report = try store.verify()
        #expect(!report.isHealthy)
        #expect(report.eventsChecked > 0 && report.eventsChecked < 60, "the walk got into the tree, then stopped: \(report.eventsChecked)")
        let finding = try #require(report.problems.last, "\(report.problems)")
        #expect(finding.hasPrefix("events after position \(report.lastPosition): reading failed, storage failure:"), "\(finding)")
        #expect(finding.contains("MDB_PAGE_NOTFOUND"), "\(finding)")
    }

    @Test func verifyOnTheCommandLineReportsItAndFails() async throws {
        let log = try await damagedLog()
        defer { try? FileManager.default.removeItem(atPath: log.directory) }
        let run = try await AdminRun(["verify", "--data-dir", log.directory])
        #expect(run.status == 1, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains("reading failed, storage failure:") && run.stdout.contains("MDB_PAGE_NOTFOUND"), "\(run.stdout)")
        #expect(run.lines.last == "the log is DAMAGED")
    }
}

/// Rewrites, in the closed environment at `path`, the second child pointer of the `events`
/// database's root branch page to a page number far past the file's end.
///
/// LMDB's layout (lmdb.h/mdb.c, 64-bit): a page starts with a 16-byte header (page number 8,
/// pad 2, flags 2, lower 2, upper 2) followed by 2-byte node offsets; meta pages 0 and 1 hold,
/// at 16, magic 4, version 4, address 8, map size 8, then the free and main databases' 48-byte
/// descriptors (`MDB_db`: pad 4 — the page size, for the free one — flags 2, depth 2, branch,
/// leaf and overflow pages, entries, root, 8 each) and, at 136 and 144, the last page and the
/// transaction id. A node is lo 2, hi 2, flags 2, key size 2, then the key and its data; a
/// branch node's lo, hi and flags are its child's page number.
private func aimSecondEventsChildPastTheEnd(of path: String) throws {
    var file = try Data(contentsOf: URL(fileURLWithPath: path))
    func u16(_ offset: Int) -> Int { Int(file[offset]) | Int(file[offset + 1]) << 8 }
    func u64(_ offset: Int) -> Int { (0..<8).reduce(0) { $0 | Int(file[offset + $1]) << (8 * $1) } }
    let pageBytes = u64(16 + 24) & 0xFFFF_FFFF  // md_pad of the free database's descriptor
    try #require(pageBytes >= 512 && pageBytes.nonzeroBitCount == 1, "page size \(pageBytes)")
    let meta = u64(144) >= u64(pageBytes + 144) ? 0 : pageBytes  // the newer meta page
    let mainRoot = u64(meta + 88 + 40) * pageBytes
    try #require(file[mainRoot + 10] & 0x02 != 0, "the main database's root is a leaf")

    // Find the `events` descriptor among the main database's named databases.
    var eventsDescriptor: Int?
    for index in 0..<((u16(mainRoot + 12) - 16) / 2) {
        let node = mainRoot + u16(mainRoot + 16 + 2 * index)
        let keyBytes = u16(node + 6)
        if String(decoding: file[(node + 8)..<(node + 8 + keyBytes)], as: UTF8.self) == "events" { eventsDescriptor = node + 8 + keyBytes }
    }
    let descriptor = try #require(eventsDescriptor, "no events database")
    try #require(u16(descriptor + 6) >= 2, "the events tree has a branch level")
    let root = u64(descriptor + 40) * pageBytes
    try #require(file[root + 10] & 0x01 != 0, "the events root is a branch page")
    try #require((u16(root + 12) - 16) / 2 >= 3, "the root has at least three children")
    let second = root + u16(root + 16 + 2)
    for offset in 0..<6 { file[second + offset] = offset == 5 ? 0x00 : 0x7F }  // page 0x7F_7F7F_7F7F, far past the end
    try file.write(to: URL(fileURLWithPath: path))
}
