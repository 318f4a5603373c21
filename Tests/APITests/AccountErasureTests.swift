import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import API
import Accounts
import EventSourcing

/// `DELETE /v1/me` end to end (SPEC §1, issue 11, ADR 0004): an account active in every app is
/// erased; other users' reads keep ids, counts and scores but show "Deleted user" and none of
/// the texts; after the server stops, no file of the data directory holds any of its personal
/// data or its key; the e-mail registers again, and a rebuild of every read model brings none
/// of it back.
@Suite("Account erasure", .timeLimit(.minutes(3)))
struct AccountErasureTests {
    /// Eve's data, every piece unique so a byte scan finds only hers.
    private static let marker = "q7x3"
    private static let email = "eve-\(marker)@example.org"
    private static let password = "correct horse \(marker)"
    private static let displayName = "Evelyn \(marker)zor"
    private static let firstName = "Evangelina\(marker)"
    private static let lastName = "Murdstone\(marker)"
    private static let username = "evemark\(marker)"
    private static let title = "MARKER-title-\(marker)"
    private static let description = "MARKER-description-\(marker)"
    private static let reply = "MARKER-reply-\(marker)"
    /// What must not be on disk after the erasure (the postcode is Bob's too: neighbours share it).
    private static let secrets = [email, displayName, firstName, lastName, username, title, description, reply, "Evelyn", marker]

    private static func runtime(_ directory: String) throws -> LogbookRuntime {
        try .forTests(on: directory, unsafeNoSync: false) { $0.operatorToken = nil }
    }

    private static func serve<Value>(_ runtime: LogbookRuntime, _ body: @Sendable (any TestClientProtocol) async throws -> Value) async throws -> Value {
        try await runtime.serveForTests(logger: Logger(label: "erasure-tests"), body)
    }

    @Test func anAccountActiveInEveryAppIsErasedEverywhereAndFromEveryFile() async throws {
        let directory = NSTemporaryDirectory() + "erasure-tests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }

        // 1. Eve and Bob use every app; Eve is erased.
        let first = try Self.runtime(directory)
        _ = try await prepareFirstStart(runtime: first, demo: false)
        let (eveId, eveKey, before) = try await Self.serve(first) { client in
            let eve = try await client.register(Self.email, password: Self.password, displayName: Self.displayName, username: Self.username,
                                                extra: ["firstName": Self.firstName, "lastName": Self.lastName, "postcode": "1012AB"])
            let bob = try await client.register("bob@example.org", displayName: "Bob", username: "bob", extra: ["postcode": "1012AB"])
            let world = try await Self.playEverything(client, eve: eve.token, bob: bob.token)
            let key = try #require(try first.personalData.dataKey(of: eve.userId, create: false)).withUnsafeBytes { Data($0) }
            let before = try await Self.reads(client, bob: bob.token, world)
            #expect(before.members == ["Bob", Self.displayName] && before.title == Self.title && before.replies.contains(Self.reply))

            // Refusals first: none of them erases anything.
            let wrong = try await client.send(.delete, "/v1/me", json: ["password": "not the password"], token: eve.token)
            #expect(wrong.status == .forbidden && wrong.code == "invalid_credentials" && wrong.isProblem)
            #expect(try await client.send(.delete, "/v1/me", json: ["password": Self.password]).status == .unauthorized)
            #expect(try await client.send(.delete, "/v1/me", json: ["pass": Self.password], token: eve.token).status == .badRequest)
            #expect(try await client.send(.delete, "/v1/me", json: ["password": 42], token: eve.token).status == .badRequest)
            #expect(try await client.me(eve.token).status == .ok)

            let published = try #require(try first.log.lmdb.chainHead(), "a head published before the erasure")
            let erased = try await client.send(.delete, "/v1/me", json: ["password": Self.password], token: eve.token)
            #expect(erased.status == .noContent, "\(erased.text)")
            #expect(try await client.me(eve.token).status == .unauthorized, "every session ended")
            #expect(try await client.login(Self.email, Self.password).status == .unauthorized)
            #expect(try await client.send(.delete, "/v1/me", json: ["password": Self.password], token: eve.token).status == .unauthorized)
            // At once, before the background rebuild ends: the erasure is read-your-writes (ADR 0010).
            let after = try await Self.reads(client, bob: bob.token, world)
            Self.expectErased(after, comparedWith: before)
            await first.readModelsScrubbed()
            Self.expectErased(try await Self.reads(client, bob: bob.token, world), comparedWith: before)
            // The log was not edited: it verifies, and its prefix is still the published one.
            let report = try first.log.lmdb.verify(heads: [published])
            #expect(report.isHealthy && report.headsChecked == 1, "\(report.problems)")
            return (eve.userId, key, before)
        }
        first.close()
        #expect(!FileManager.default.fileExists(atPath: directory + "/keys/\(eveId).key"))

        // 2. Stopped: no file holds any of Eve's personal data, or her key.
        var needles = Self.secrets.map { Data($0.utf8) }
        needles.append(eveKey)
        let found = try Self.scan(directory, for: needles)
        #expect(found.isEmpty, "personal data of the erased user on disk: \(found)")

        // 3. Started again: every read model rebuilt from the log shows none of it; the e-mail
        // and username are free.
        let second = try Self.runtime(directory)
        try await Self.serve(second) { client in
            // Every read model rebuilt from the log, as an erasure does; the rebuild is checked done.
            let generations = try await second.projections.status().map(\.generation)
            second.scrubReadModels()
            await second.readModelsScrubbed()
            let statuses = try await second.projections.status()
            #expect(zip(generations, statuses).allSatisfy { $0 != $1.generation }, "every read model was rebuilt")
            for status in statuses { #expect(status.lastRebuildError == nil && status.failure == nil, "\(status)") }
            let bob = try #require(try await client.login("bob@example.org", "correct horse").json["token"] as? String)
            let rebuilt = try await Self.reads(client, bob: bob, before.world)
            Self.expectErased(rebuilt, comparedWith: before)
            let again = try await client.register(Self.email, password: "another password", displayName: "Eve Again", username: Self.username)
            #expect(again.userId != eveId)
            #expect(try await client.me(again.token).json["email"] as? String == Self.email)
        }
        second.close()
    }

    /// A crash after the read models projected an erasure but before its key was destroyed
    /// (put back here as such a crash leaves the key directory): the next start destroys the
    /// key and rebuilds the read models by itself.
    @Test func anErasureInterruptedAfterItsEventIsFinishedOnTheNextStart() async throws {
        let directory = NSTemporaryDirectory() + "erasure-tests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let keys = directory + "/keys"
        let first = try Self.runtime(directory)
        let (annId, houseId) = try await Self.serve(first) { client in
            let ann = try await client.register("ann@example.org", displayName: "Annabel")
            let bob = try await client.register("bob@example.org", displayName: "Bob")
            let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: bob.token)
            let code = try #require(created.json["joinCode"] as? String)
            try #require(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: ann.token).status == .ok)
            try FileManager.default.copyItem(atPath: "\(keys)/\(ann.userId).key", toPath: "\(directory)/saved.key")
            // What `DELETE /v1/me` appends; its projection destroys the key here.
            let metadata = CommandMetadata(actor: ann.userId, now: Date(), commandID: UUID())
            let outcome = try await first.commands.handle(AccountDecider.self, .erase(.init(userId: ann.userId)), metadata: metadata)
            try await first.projections.waitUntilProjected(outcome.position)
            #expect(first.erasures.handledPosition == outcome.position)
            return (ann.userId, try #require(created.json["houseId"] as? String))
        }
        first.close()
        #expect(try first.personalData.isErased(annId))
        // The key directory as a crash right after the read models' commit leaves it.
        for name in ["\(annId).erased", ErasureFollower.fileName] { try FileManager.default.removeItem(atPath: "\(keys)/\(name)") }
        try FileManager.default.moveItem(atPath: "\(directory)/saved.key", toPath: "\(keys)/\(annId).key")

        let second = try Self.runtime(directory)
        #expect(try second.personalData.isErased(annId) == false)
        try await Self.serve(second) { client in
            // The erasure writes its mark durably, then removes the key: both, in that order.
            try await waitUntil(timeout: .seconds(20)) {
                try second.personalData.isErased(annId) && !FileManager.default.fileExists(atPath: "\(keys)/\(annId).key")
            }
            #expect(second.scrub.isPending, "the scrub was owed before the runner started")
            try await waitUntil(timeout: .seconds(20)) { second.scrub.hasCompleted }
            // The start's own check for an owed scrub, which waits for the runner to catch up,
            // may come only now: it must not start another pass, which would keep the marker.
            let passes = second.scrub.passes
            await second.scrub.finishPending(second)
            await second.readModelsScrubbed()
            #expect(second.scrub.passes == passes, "no pass after one completed")
            let bob = try #require(try await client.login("bob@example.org", "correct horse").json["token"] as? String)
            let house = try await client.send(.get, "/v1/houses/\(houseId)", token: bob)
            let members = (house.json["members"] as? [[String: Any]] ?? []).compactMap { $0["displayName"] as? String }
            #expect(members == ["Bob", "Deleted user"], "\(house.text)")
        }
        second.close()
        #expect(!second.scrub.isPending, "compacted at the stop")
    }

    // MARK: The world Eve lived in

    fileprivate struct World: Sendable {
        var houseId: String, reportId: String, gameId: String
    }

    fileprivate struct Reads: Sendable {
        var world: World
        var members: [String]
        var scoreboard: [String]
        var title: String?
        var description: String?
        var author: String?
        var replyCount: Int?
        var replies: [String]
        var replyAuthors: [String]
        var opponent: String?
        var points: [Int]
        var historyCount: Int
    }

    /// Bob makes a house, Eve joins and does a task; Eve posts a report and both reply; Eve
    /// challenges Bob to a quiz game and both play it through.
    private static func playEverything(_ client: any TestClientProtocol, eve: String, bob: String) async throws -> World {
        let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: bob)
        try #require(created.status == .created, "\(created.text)")
        let houseId = try #require(created.json["houseId"] as? String)
        let code = try #require(created.json["joinCode"] as? String)
        try #require(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: eve).status == .ok)
        let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: bob)
        let roomId = try #require(room.json["roomId"] as? String)
        let task = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                         json: ["name": "Dishes", "frequencyDays": 1, "points": 5], token: bob)
        let taskId = try #require(task.json["taskId"] as? String)
        try #require(try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: eve).status == .created)

        let posted = try await client.send(.post, "/v1/neighbourhood/reports", json: [
            "title": title, "description": description, "category": "suspicious",
            "location": ["latitude": 52.3731, "longitude": 4.8922],
        ], token: eve)
        try #require(posted.status == .created, "\(posted.text)")
        let reportId = try #require(posted.json["reportId"] as? String)
        let report = "/v1/neighbourhood/reports/\(reportId)"
        try #require(try await client.send(.post, "\(report)/replies", json: ["message": "Bob saw it too"], token: bob).status == .created)
        try #require(try await client.send(.post, "\(report)/replies", json: ["message": reply], token: eve).status == .created)

        let game = try await client.send(.post, "/v1/quiz/games", json: ["opponentUsername": "bob"], token: eve)
        try #require(game.status == .created, "\(game.text)")
        let gameId = try #require(game.json["gameId"] as? String)
        for token in [eve, bob] {
            for _ in 0..<10 {
                let question = try await client.send(.get, "/v1/quiz/games/\(gameId)/question", token: token)
                try #require(question.status == .ok, "\(question.text)")
                let index = try #require(question.json["index"] as? Int)
                let option = try #require((question.json["answers"] as? [String])?.first)
                try #require(try await client.send(.post, "/v1/quiz/games/\(gameId)/answers", json: ["index": index, "answer": option], token: token).status == .created)
            }
        }
        return World(houseId: houseId, reportId: reportId, gameId: gameId)
    }

    /// What Bob sees of the world.
    private static func reads(_ client: any TestClientProtocol, bob: String, _ world: World) async throws -> Reads {
        let house = try await client.send(.get, "/v1/me/house", token: bob)
        let members = (house.json["members"] as? [[String: Any]] ?? []).compactMap { $0["displayName"] as? String }
        let board = try await client.send(.get, "/v1/houses/\(world.houseId)/scoreboard", token: bob)
        let rows = (board.json["members"] as? [[String: Any]] ?? []).map { "\($0["displayName"] ?? "")=\($0["points"] ?? "")" }
        let history = try await client.send(.get, "/v1/houses/\(world.houseId)/history?limit=100", token: bob)
        let detail = try await client.send(.get, "/v1/neighbourhood/reports/\(world.reportId)", token: bob)
        let replies = detail.json["replies"] as? [[String: Any]] ?? []
        let game = try await client.send(.get, "/v1/quiz/games/\(world.gameId)", token: bob)
        let me = game.json["me"] as? [String: Any] ?? [:]
        let opponent = game.json["opponent"] as? [String: Any] ?? [:]
        return Reads(
            world: world, members: members, scoreboard: rows,
            title: detail.json["title"] as? String, description: detail.json["description"] as? String,
            author: (detail.json["author"] as? [String: Any])?["displayName"] as? String,
            replyCount: detail.json["replyCount"] as? Int,
            replies: replies.compactMap { $0["message"] as? String },
            replyAuthors: replies.compactMap { ($0["author"] as? [String: Any])?["displayName"] as? String },
            opponent: opponent["username"] as? String,
            points: [me["points"] as? Int ?? -1, opponent["points"] as? Int ?? -1],
            historyCount: (history.json["items"] as? [[String: Any]] ?? []).count)
    }

    private static func expectErased(_ after: Reads, comparedWith before: Reads) {
        #expect(after.members == ["Bob", "Deleted user"])
        #expect(after.scoreboard == before.scoreboard.map { $0.replacingOccurrences(of: displayName, with: "Deleted user") })
        #expect(after.scoreboard.contains("Deleted user=5"))
        #expect(after.historyCount == before.historyCount && after.historyCount > 0)
        #expect(after.title == "" && after.description == "" && after.author == "Deleted user")
        #expect(after.replyCount == 2 && before.replyCount == 2)
        #expect(after.replies == ["Bob saw it too", ""] && after.replyAuthors == ["Bob", "Deleted user"])
        #expect(after.opponent == "Deleted user" && before.opponent == username)
        #expect(after.points == before.points && !after.points.contains(-1))
    }

    /// Every file under `directory` whose bytes contain one of `needles`: path → needle index.
    private static func scan(_ directory: String, for needles: [Data]) throws -> [String: [Int]] {
        var found: [String: [Int]] = [:]
        let enumerator = try #require(FileManager.default.enumerator(atPath: directory))
        var files = 0
        while let relative = enumerator.nextObject() as? String {
            let path = (directory as NSString).appendingPathComponent(relative)
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory.boolValue else { continue }
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            files += 1
            for (index, needle) in needles.enumerated() where bytes.range(of: needle) != nil {
                found[relative, default: []].append(index)
            }
        }
        #expect(files >= 4, "the log, the read models, the secret and the key store were scanned")
        return found
    }
}
