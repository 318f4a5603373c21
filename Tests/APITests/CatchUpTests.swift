import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import API

/// A start whose read models are behind the log (here: removed, as a restore from a backup
/// without them leaves them) holds the apps' requests until they have caught up: a correct
/// password is never refused as wrong while they fill (the flake CI showed as a 401 on a
/// restored server's first login), and past the wait the answer is 503 `read_models_behind`.
@Suite("Requests held while a start catches up", .timeLimit(.minutes(3)))
struct CatchUpTests {
    @Test func aStartBehindTheLogAnswersFromReadModelsThatHoldIt() async throws {
        let directory = NSTemporaryDirectory() + "catch-up-tests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let first = try LogbookRuntime.forTests(on: directory, unsafeNoSync: true)
        let houseId = try await first.serveForTests { client in
            let ann = try await client.register("ann@example.org", displayName: "Ann")
            let house = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann.token)
            return try #require(house.json["houseId"] as? String)
        }
        first.close()
        try FileManager.default.removeItem(atPath: directory + "/readmodels")

        // Before the runner has run, the read models hold nothing of the log: a request waits
        // for them, and past the wait is told so, never answered from them.
        let second = try LogbookRuntime.forTests(on: directory, unsafeNoSync: true) { $0.readYourWritesTimeout = .milliseconds(200) }
        #expect(second.projections.runnerStatus.phase == .starting)
        let started = ContinuousClock.now
        do {
            try await second.readModelsCaughtUp()
            Issue.record("answered from read models behind the log")
        } catch {
            #expect(error.status == 503 && error.code == "read_models_behind" && error.headers[.retryAfter] == "1", "\(error)")
        }
        #expect(ContinuousClock.now - started >= .milliseconds(200), "it waited for them first")

        try await second.serveForTests { client in
            // The runner catches up meanwhile; the login waits for it instead of a 401.
            let login = try await client.login("ann@example.org", "correct horse")
            #expect(login.status == .created, "\(login.text)")
            let token = try #require(login.json["token"] as? String)
            let house = try await client.send(.get, "/v1/houses/\(houseId)", token: token)
            #expect(house.status == .ok && house.json["name"] as? String == "Canal House", "\(house.text)")
        }
        #expect(second.projections.runnerStatus.phase != .catchingUp)
        second.close()
    }

    @Test(arguments: [
        ("/v1/sessions", true), ("/v1/houses/abc/scoreboard", true), ("/v1/me", true),
        ("/health", false), ("/health/ready", false), ("/metrics", false), ("/openapi.json", false),
        ("/v1/admin/projections", false), ("/console/", false),
    ])
    func theAppsRoutesWaitAndTheOperatorsDoNot(path: String, waits: Bool) {
        #expect(CatchUpMiddleware<LogbookRequestContext>.waits(path) == waits)
    }
}
