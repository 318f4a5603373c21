import Foundation
import TestSupport
import LMDB
import Testing
@testable import EventLog

/// `logbook-admin head`, `verify --head`, `records` and `migrate`, and the independent verifier
/// (tools/verify-chain/verify_chain.py) run on the same logs: it must agree with `verify`.
@Suite("logbook-admin hash chain", .timeLimit(.minutes(2)))
struct ChainCLITests {
    /// The Python verifier beside this repository's sources.
    private static let verifierPath = PackageFiles.root.appendingPathComponent("tools/verify-chain/verify_chain.py").path

    /// Runs the Python verifier on `records` (the output of `logbook-admin records`).
    private func independentVerify(_ records: String, head: String) async throws -> ChildProcess.Output {
        let file = NSTemporaryDirectory() + "records-" + UUID().uuidString + ".jsonl"
        try records.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try await ChildProcess.output(
            of: URL(fileURLWithPath: "/usr/bin/env"), arguments: ["python3", Self.verifierPath, "--head", head, file],
            environment: nil, killingAfter: .seconds(60))
    }

    private func head(_ directory: String) async throws -> String {
        let run = try await AdminRun(["head", "--data-dir", directory])
        #expect(run.status == 0, "\(run.stderr)")
        return try #require(run.lines.first)
    }

    /// A writable store on the test log's directory, for damage done behind the tool's back.
    private func withStore(_ directory: String, _ body: (LMDBEventStore) throws -> Void) throws {
        var options = EventStoreOptions()
        options.unsafeNoSync = true
        let store = try LMDBEventStore(dataDirectory: directory, options: options)
        defer { store.close() }
        try body(store)
    }

    @Test func aPublishedHeadIsProvenAfterGrowthByVerifyAndTheIndependentVerifier() async throws {
        let log = try await AdminTestLog.makeLong()
        defer { log.remove() }
        let published = try await head(log.directory)
        #expect(published.hasPrefix("600:") && published.count == 4 + 64)
        let json = try await AdminRun(["head", "--json", "--data-dir", log.directory])
        let object = try #require(try json.jsonLines().first)
        #expect("\(object["position"] as? Int ?? -1):\(object["hash"] as? String ?? "")" == published)
        try await log.appendLive([("bulk-9", "bulk.late"), ("bulk-9", "bulk.late")])
        let verify = try await AdminRun(["verify", "--head", published, "--data-dir", log.directory])
        #expect(verify.status == 0, "\(verify.stdout)\(verify.stderr)")
        #expect(verify.lines.contains { $0.hasPrefix("heads checked") && $0.hasSuffix(" 1") })
        #expect(verify.lines.contains { $0.hasPrefix("chain hashes checked") && $0.hasSuffix(" 602") })
        let records = try await AdminRun(["records", "--data-dir", log.directory])
        #expect(records.status == 0 && records.lines.count == 602)
        let independent = try await independentVerify(records.stdout, head: published)
        #expect(independent.status == 0, "\(independent.output)")
        #expect(independent.output.contains("verified up to \(published)"))
        // And the grown log's own head, which both compute from the records alone.
        let grown = try await head(log.directory)
        #expect(try await independentVerify(records.stdout, head: grown).status == 0)
        let upTo = try await AdminRun(["records", "--to", "10", "--data-dir", log.directory])
        #expect(try upTo.positions() == Array(1...10))
    }

    @Test func aRewriteWithARecomputedChecksumIsNamedByBoth() async throws {
        let log = try await AdminTestLog.makeLong()
        defer { log.remove() }
        let published = try await head(log.directory)
        try withStore(log.directory) { store in
            try HashChainTests.rewrite(store, at: 250) { bytes in
                bytes[bytes.count - 5] = UInt8(ascii: "]")  // {} → {], still the record's size
                bytes[bytes.count - 6] = UInt8(ascii: "[")
            }
        }
        let verify = try await AdminRun(["verify", "--head", published, "--data-dir", log.directory])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("chain: position 250 does not hash to its stored chain hash"), "\(verify.stdout)")
        #expect(verify.lines.contains { $0.hasPrefix("first diverging") && $0.hasSuffix(" position 250") }, "\(verify.stdout)")
        let independent = try await independentVerify(try await AdminRun(["records", "--data-dir", log.directory]).stdout, head: published)
        #expect(independent.status == 1)
        #expect(independent.output.contains("first diverging position: 250"), "\(independent.output)")
    }

    @Test func aDamagedRecordIsNamedByBoth() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let published = try await head(log.directory)
        try log.flipDataByte(atPosition: 3)
        let verify = try await AdminRun(["verify", "--head", published, "--data-dir", log.directory])
        #expect(verify.status == 1 && verify.stdout.contains("corrupt record at position 3: checksum mismatch"), "\(verify.stdout)")
        #expect(verify.lines.contains { $0.hasPrefix("first diverging") && $0.hasSuffix(" position 3") }, "\(verify.stdout)")
        let independent = try await independentVerify(try await AdminRun(["records", "--data-dir", log.directory]).stdout, head: published)
        #expect(independent.status == 1 && independent.output.contains("position 3: checksum mismatch"), "\(independent.output)")
        #expect(independent.output.contains("first diverging position: 3"))
    }

    @Test func aForgedConsistentLogFailsThePublishedHeadInBoth() async throws {
        let log = try await AdminTestLog.makeLong()
        defer { log.remove() }
        let published = try await head(log.directory)
        try withStore(log.directory) { store in
            try HashChainTests.rewrite(store, at: 100) { bytes in
                bytes[bytes.count - 5] = UInt8(ascii: "]")
                bytes[bytes.count - 6] = UInt8(ascii: "[")
            }
            try HashChainTests.rechain(store)
        }
        let plain = try await AdminRun(["verify", "--data-dir", log.directory])
        #expect(plain.status == 0, "consistent in itself: \(plain.stdout)")
        let verify = try await AdminRun(["verify", "--head", published, "--data-dir", log.directory])
        #expect(verify.status == 1)
        #expect(verify.stdout.contains("head 600: the log up to 600 is not the published one"), "\(verify.stdout)")
        #expect(verify.lines.contains { $0.hasPrefix("first diverging") && $0.hasSuffix(" position 600") })
        let records = try await AdminRun(["records", "--data-dir", log.directory]).stdout
        let independent = try await independentVerify(records, head: published)
        #expect(independent.status == 1)
        #expect(independent.output.contains("first diverging position: 600"), "\(independent.output)")
        // The forged log's own head verifies in both: the chain proves only against what was published.
        let forgedHead = try await head(log.directory)
        #expect(forgedHead != published)
        #expect(try await independentVerify(records, head: forgedHead).status == 0)
    }

    @Test func aTruncatedExportOrLogFailsTheHead() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let published = try await head(log.directory)
        let shorter = try await AdminRun(["records", "--to", "4", "--data-dir", log.directory]).stdout
        let independent = try await independentVerify(shorter, head: published)
        #expect(independent.status == 1 && independent.output.contains("head 6: the log ends at position 4"), "\(independent.output)")
        let beyond = "7:" + published.split(separator: ":")[1]
        let verify = try await AdminRun(["verify", "--head", beyond, "--data-dir", log.directory])
        #expect(verify.status == 1 && verify.stdout.contains("head 7: the log ends at position 6, before the published head"))
        let malformed = try await AdminRun(["verify", "--head", "6:abc", "--data-dir", log.directory])
        #expect(malformed.status == 2 && malformed.stderr.contains("expected POS:HASH"), "\(malformed.stderr)")
        #expect(try await independentVerify(shorter, head: "6:abc").status == 2)
    }

    @Test func aPreChainDirectoryIsRefusedReadOnlyAndMigratedByMigrate() async throws {
        let log = try await AdminTestLog.make()
        defer { log.remove() }
        let original = try await head(log.directory)
        try HashChainTests.downgrade(log.directory)
        let refused = try await AdminRun(["head", "--data-dir", log.directory])
        #expect(refused.status == 1 && refused.stderr.contains("run logbook-admin migrate"), "\(refused.stderr)")
        let unproven = try await AdminRun(["verify", "--data-dir", log.directory])
        #expect(unproven.status == 1 && unproven.stdout.contains("written before the hash chain"))
        let migrate = try await AdminRun(["migrate", "--data-dir", log.directory])
        #expect(migrate.status == 0 && migrate.lines == ["chain head \(original)"], "\(migrate.stdout)\(migrate.stderr)")
        #expect(try await head(log.directory) == original)
        let again = try await AdminRun(["migrate", "--data-dir", log.directory])
        #expect(again.lines == ["chain head \(original)"])
        #expect(try await AdminRun(["verify", "--head", original, "--data-dir", log.directory]).status == 0)
    }
}
