import EventLog
import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// A server for the admin API's tests: the operator token set, the clock in the test's hand.
enum AdminFixture {
    static let operatorToken = "operator-secret"

    /// "Canal House" of `owner`, joined by `member`, with the 5-point task "Dishes" in its
    /// kitchen, made over HTTP: the house the point-in-time tests complete and look back on.
    static func houseWithTask(_ client: any TestClientProtocol, owner: String, member: String) async throws -> (houseId: String, taskId: String) {
        let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: owner)
        let houseId = try #require(created.json["houseId"] as? String, "\(created.text)")
        let code = try #require(created.json["joinCode"] as? String)
        try #require(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: member).status == .ok)
        let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: owner)
        let roomId = try #require(room.json["roomId"] as? String, "\(room.text)")
        let task = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                         json: ["name": "Dishes", "frequencyDays": 1, "points": 5], token: owner)
        return (houseId, try #require(task.json["taskId"] as? String, "\(task.text)"))
    }

    static func server(clock: TestClock = TestClock()) throws -> TestServer {
        try TestServer {
            $0.operatorToken = operatorToken
            $0.clock = { clock.now }
        }
    }

    /// `path` with `parameters` as its query, each value percent-encoded (a time's `+` too).
    static func path(_ path: String, _ parameters: [(String, String)]) -> String {
        guard !parameters.isEmpty else { return path }
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        let query = parameters.map { name, value in
            "\(name)=\(value.addingPercentEncoding(withAllowedCharacters: allowed) ?? value)"
        }
        return path + "?" + query.joined(separator: "&")
    }

    /// Every event of the log, oldest first, read straight from the store: what the routes are
    /// checked against, filtered in each test by a plain predicate of its own.
    static func logEvents(_ log: LMDBEventStore) throws -> [RecordedEvent] {
        var events: [RecordedEvent] = []
        while true {
            let page = try log.readAll(from: UInt64(events.count + 1), limit: 1_000)
            guard !page.isEmpty else { return events }
            events += page
        }
    }
}

extension TestClientProtocol {
    /// `GET path` with the operator token.
    func admin(_ path: String) async throws -> Reply {
        try await send(.get, path, token: AdminFixture.operatorToken)
    }

    /// Follows an admin list from `path` (with its query but no cursor) through every `next`,
    /// starting at `cursor` if given; the items of each page. Fails the test on any status but
    /// 200 or past `pagesMax` pages.
    func adminPages(_ path: String, from start: String? = nil, pagesMax: Int = 500) async throws -> [[[String: Any]]] {
        var pages: [[[String: Any]]] = []
        var cursor = start
        repeat {
            let separator = path.contains("?") ? "&" : "?"
            let reply = try await admin(cursor.map { path + separator + "cursor=" + $0 } ?? path)
            try #require(reply.status == .ok, "\(path): \(reply.text)")
            pages.append(reply.json["items"] as? [[String: Any]] ?? [])
            cursor = reply.json["next"] as? String
            try #require(pages.count <= pagesMax, "\(path): more than \(pagesMax) pages")
        } while cursor != nil
        return pages
    }

    /// The positions of every item of a list, across its pages.
    func adminPositions(_ path: String, from start: String? = nil) async throws -> [Int] {
        try await adminPages(path, from: start).flatMap { $0.compactMap { $0["position"] as? Int } }
    }
}

/// Two housemates' week, across two apps, with the clock moving a minute between steps: what the
/// admin tests read back.
struct AdminScenario {
    let ann: (userId: String, token: String)
    let bob: (userId: String, token: String)
    let houseId: String
    let taskId: String
    let reportId: String
    /// The Idempotency-Key of Bob's completion of the task: its command id in the log.
    let completionKey: String

    static func play(_ client: any TestClientProtocol, clock: TestClock) async throws -> AdminScenario {
        let ann = try await client.register("ann@example.org", displayName: "Ann", extra: ["postcode": "1012AB"])
        let bob = try await client.register("bob@example.org", displayName: "Bob", extra: ["postcode": "1012AB"])
        clock.advance(by: 60)
        let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann.token)
        try #require(created.status == .created, "\(created.text)")
        let houseId = try #require(created.json["houseId"] as? String)
        let code = try #require(created.json["joinCode"] as? String)
        try #require(try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: bob.token).status == .ok)
        clock.advance(by: 60)
        let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: ann.token)
        let roomId = try #require(room.json["roomId"] as? String, "\(room.text)")
        let task = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                         json: ["name": "Dishes", "frequencyDays": 1, "points": 5], token: bob.token)
        let taskId = try #require(task.json["taskId"] as? String, "\(task.text)")
        clock.advance(by: 60)
        let key = UUID().uuidString.lowercased()
        let done = try await client.send(.post, "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: bob.token, key: key)
        try #require(done.status == .created, "\(done.text)")
        clock.advance(by: 60)
        let report = try await client.send(.post, "/v1/neighbourhood/reports", json: [
            "title": "Lost cat", "description": "Grey, answers to Mies.", "category": "attention",
            "location": ["latitude": 52.37, "longitude": 4.89],
        ], token: ann.token)
        let reportId = try #require(report.json["reportId"] as? String, "\(report.text)")
        return AdminScenario(ann: ann, bob: bob, houseId: houseId, taskId: taskId, reportId: reportId, completionKey: key)
    }
}
