import EventLog
import Foundation
import TestSupport
import Synchronization
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `logbook-admin backup DIR` beside the real `logbook serve` while writers append (issue 15):
/// the copy opens, verifies, holds every event acknowledged before the backup began, its images
/// and keys, and serves; a non-empty DIR is refused.
@Suite("Admin: logbook-admin backup under load (server process)", .timeLimit(.minutes(5)))
struct AdminBackupCLITests {
    /// Concurrent writers, each a housemate completing the task over and over (the issue's load).
    static let writers = 64

    @Test func aBackupTakenWhileWritersAppendOpensVerifiesAndHoldsEveryAcknowledgedEvent() async throws {
        let directory = TemporaryDataDirectory()
        let backup = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path, environment: ["LOGBOOK_SECRET_KEY": ""])
        defer { server.kill() }
        // Four houses of sixteen (a house holds at most 50 members).
        var houses: [LiveHouseFixture] = []
        for number in 1...4 {
            houses.append(try await LiveHouseFixture.make(server.client, members: (1...Self.writers / 4).map { "Writer\(number)x\($0)" }))
        }
        let house = houses[0]
        let annEmail = "ann-\(UUID().uuidString.prefix(8))@example.org"
        let ann = try await server.client.register(annEmail, displayName: "Ann Backup")
        var images: [String: Data] = [:]
        for colour in [UInt8(201), 202] {
            let image = TestImages.png(colour)
            let blobId = try await upload(image, to: server.address, token: ann.token)
            images[blobId] = image
        }

        let acknowledged = AcknowledgedPositions()
        // The writers stop at a flag, not by cancellation: cancelling a task whose URLSession
        // request is completing deadlocks FoundationNetworking on Linux (the canceller holds the
        // task's status lock and waits for the session's queue, which waits for that lock to
        // resume the request), and with it every thread of the cooperative pool.
        let load = Task {
            try await (0..<Self.writers).asyncMap(concurrently: true) { [houses] writer in
                // A failed request does not throw out of the group either: that would cancel the rest.
                while !acknowledged.stopped {
                    do { acknowledged.add(try await houses[writer % 4].complete(by: writer / 4)) } catch { try? await Task.sleep(for: .milliseconds(10)) }
                }
            }
        }
        defer { acknowledged.stop() }
        try await acknowledged.wait { $0 >= 2 * Self.writers }
        // Everything acknowledged before the backup starts must be in the copy.
        let before = acknowledged.all
        let keysBefore = try FileManager.default.contentsOfDirectory(atPath: directory.path + "/keys")
        let result = try await AdminTool.run(["backup", "--data-dir", directory.path, backup.path], unsetting: ["LOGBOOK_DATA_DIR"])
        let during = acknowledged.count - before.count
        acknowledged.stop()
        _ = try? await load.value
        #expect(result.status == 0, "\(result.output)")
        #expect(during > 0, "writers were acknowledged while the backup ran")
        // A copy of the data directory is as private as the data directory.
        let loose = DataDirectoryModeTests.modes(below: backup.path).filter { $0.mode & 0o077 != 0 }
        #expect(loose.isEmpty, "\(loose.map { "\($0.path) \(String($0.mode, radix: 8))" })")

        var readOnly = EventStoreOptions()
        readOnly.readOnly = true
        let copy = try LMDBEventStore(dataDirectory: backup.path, options: readOnly)
        let head = try copy.headPosition()
        #expect(result.stdout.contains("log: positions 1…\(head), "), "\(result.stdout)")
        #expect(result.stdout.contains("images: 2 files, \(images.values.map(\.count).reduce(0, +)) bytes"), "\(result.stdout)")
        #expect(result.stdout.contains("verified: \(head) events, healthy"), "\(result.stdout)")
        var firstHouseCompletions = 0
        for position in before {
            let event = try copy.event(at: position)
            #expect(event?.type == "household.taskCompleted", "acknowledged event \(position) is in the copy")
            if event?.streamID == "house-\(house.houseId)" { firstHouseCompletions += 1 }
        }
        #expect(head >= before.max() ?? 0)
        let verify = try await AdminTool.run(["verify", "--data-dir", backup.path], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(verify.status == 0, "\(verify.output)")
        for (blobId, bytes) in images {
            #expect(FileManager.default.contents(atPath: "\(backup.path)/blobs/\(blobId.prefix(2))/\(blobId)") == bytes)
        }
        let keysCopied = Set(try FileManager.default.contentsOfDirectory(atPath: backup.path + "/keys"))
        #expect(Set(keysBefore).isSubset(of: keysCopied), "every key made before the backup is in it")
        #expect(FileManager.default.contents(atPath: backup.path + "/secret.key") == FileManager.default.contents(atPath: directory.path + "/secret.key"))
        #expect(try await server.terminate())

        // A server on the copy serves it: a login (blind e-mail tags need the secret key), the
        // profile (its sealed name needs the user's key) and the house's completions up to the copy.
        let restored = try await ServerProcess(dataDirectory: backup.path, environment: ["LOGBOOK_SECRET_KEY": ""])
        defer { restored.kill() }
        let token = try await restored.client.login(annEmail, "correct horse")
        let me = try await restored.client.send("GET", "/v1/me", token: token)
        #expect(me.json["displayName"] as? String == "Ann Backup", "\(me.text)")
        // The copied read models may be behind the copied log: the server catches them up.
        let deadline = ContinuousClock.now + .seconds(30)
        while true {
            let history = try await restored.client.send("GET", "/v1/houses/\(house.houseId)/history?limit=500", token: house.tokens[0])
            if history.status == 200 && history.list("items").count >= min(firstHouseCompletions, 500) { break }
            try #require(ContinuousClock.now < deadline, "the restored house's history: \(history.text.prefix(300))")
            try await Task.sleep(for: .milliseconds(100))
        }
        #expect(try await restored.terminate())
    }

    @Test func aBackupRefusesADirectoryThatIsNotEmptyAndAMissingLog() async throws {
        let directory = TemporaryDataDirectory()
        let server = try await ServerProcess(dataDirectory: directory.path, environment: ["LOGBOOK_SECRET_KEY": ""])
        defer { server.kill() }
        _ = try await server.client.register("bo-\(UUID().uuidString.prefix(8))@example.org", displayName: "Bo")
        let occupied = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: occupied.path, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: occupied.path + "/notes.txt", contents: Data("keep me".utf8))

        let refused = try await AdminTool.run(["backup", "--data-dir", directory.path, occupied.path], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(refused.status == 2, "\(refused.output)")
        #expect(refused.stderr.contains("not an empty directory"), "\(refused.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied.path) == ["notes.txt"], "nothing written into it")
        let onAFile = try await AdminTool.run(["backup", "--data-dir", directory.path, occupied.path + "/notes.txt"], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(onAFile.status == 2, "\(onAFile.output)")

        // The same source into a new directory is fine; --no-verify leaves the check for later.
        let fresh = TemporaryDataDirectory()
        let unverified = try await AdminTool.run(["backup", "--data-dir", directory.path, "--no-verify", fresh.path], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(unverified.status == 0 && unverified.stdout.contains("not verified") && !unverified.stdout.contains("verified: "), "\(unverified.output)")
        #expect(try await AdminTool.run(["verify", "--data-dir", fresh.path], unsetting: ["LOGBOOK_DATA_DIR"]).status == 0)

        let empty = TemporaryDataDirectory()
        try FileManager.default.createDirectory(atPath: empty.path, withIntermediateDirectories: true)
        let target = TemporaryDataDirectory()
        let noLog = try await AdminTool.run(["backup", "--data-dir", empty.path, target.path], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(noLog.status == 2, "\(noLog.output)")
        #expect(!FileManager.default.fileExists(atPath: target.path), "nothing made without a log to copy")
        #expect(try await server.terminate())
    }

    /// The server commits its read models without sync while it runs (docs/decisions/0007): the
    /// marker naming this boot is there while it serves and gone after a clean stop. Read models
    /// left unsynced by a machine that restarted are not copied; a server on the copy builds them
    /// from the log.
    @Test func readModelsLeftUnsyncedByAMachineRestartAreNotCopied() async throws {
        let directory = TemporaryDataDirectory()
        let marker = directory.path + "/readmodels/unsynced"
        let server = try await ServerProcess(dataDirectory: directory.path, environment: ["LOGBOOK_SECRET_KEY": ""])
        defer { server.kill() }
        let email = "cy-\(UUID().uuidString.prefix(8))@example.org"
        _ = try await server.client.register(email, displayName: "Cy")
        #expect(try String(contentsOfFile: marker, encoding: .utf8) == MachineBoot.id, "unsynced commits, this boot")
        #expect(try await server.terminate())
        #expect(!FileManager.default.fileExists(atPath: marker), "synced and unmarked at the clean stop")

        // As if the server had been running unsynced when the machine went down.
        try Data("an-earlier-boot".utf8).write(to: URL(fileURLWithPath: marker))
        let backup = TemporaryDataDirectory()
        let result = try await AdminTool.run(["backup", "--data-dir", directory.path, backup.path], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.stdout.contains("read models: not copied"), "\(result.stdout)")
        #expect(!FileManager.default.fileExists(atPath: backup.path + "/readmodels"))
        let stats = try await AdminTool.run(["stats", "--data-dir", directory.path], unsetting: ["LOGBOOK_DATA_DIR"])
        #expect(stats.status != 0 && stats.stderr.contains("without sync when the machine restarted"), "\(stats.output)")

        let restored = try await ServerProcess(dataDirectory: backup.path, environment: ["LOGBOOK_SECRET_KEY": ""])
        defer { restored.kill() }
        _ = try await restored.client.login(email, "correct horse")
        #expect(try await restored.terminate())
    }

    /// `POST /v1/blobs` of `bytes` as a PNG; the blob id.
    private func upload(_ bytes: Data, to address: String, token: String) async throws -> String {
        var request = URLRequest(url: try #require(URL(string: address + "/v1/blobs")))
        request.httpMethod = "POST"
        request.httpBody = bytes
        request.setValue("image/png", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await URLSession.shared.data(for: request)
        let reply = HTTPReply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, body: data)
        try #require(reply.status == 201, "upload: \(reply.text)")
        return try #require(reply.json["blobId"] as? String)
    }
}

/// The positions the writers' commands were acknowledged at, as they come in.
private final class AcknowledgedPositions: Sendable {
    private let positions = Mutex<[UInt64]>([])
    private let stopFlag = Atomic<Bool>(false)

    /// Asks the writers to stop after their request in flight.
    func stop() { stopFlag.store(true, ordering: .releasing) }
    var stopped: Bool { stopFlag.load(ordering: .acquiring) }

    func add(_ position: UInt64) { positions.withLock { $0.append(position) } }
    var all: [UInt64] { positions.withLock { $0 } }
    var count: Int { positions.withLock { $0.count } }

    /// Waits (bounded) until `condition` holds of the count.
    func wait(timeout: Duration = .seconds(60), until condition: (Int) -> Bool) async throws {
        let deadline = ContinuousClock.now + timeout
        while !condition(count) {
            try #require(ContinuousClock.now < deadline, "the writers were acknowledged \(count) times")
            try await Task.sleep(for: .milliseconds(20))
        }
    }
}
