import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import API

/// A server in process on a real socket, for the live tests' streams.
enum LiveTestServer {
    /// Runs `body` against a server with `environment`'s live settings, on a temporary directory.
    static func with(
        _ environment: [String: String] = [:], _ body: @Sendable (any TestClientProtocol, LogbookRuntime) async throws -> Void
    ) async throws {
        let directory = NSTemporaryDirectory() + "live-tests-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LogbookConfiguration(dataDirectory: directory, port: 0, bcryptCost: 4, unsafeNoSync: true, writeAhead: false)
        let runtime = try LogbookRuntime(configuration: configuration, environment: environment)
        defer { runtime.close() }
        let app = try buildApplication(runtime: runtime, logger: Logger(label: "live-tests"))
        try await app.test(.live) { client in try await body(client, runtime) }
    }

    /// The server's address, for `LiveStreamClient`.
    static func address(_ client: any TestClientProtocol) throws -> String {
        "http://127.0.0.1:\(try #require(client.port))"
    }
}

/// A house with a room and one task, its members registered over HTTP, for the live tests.
struct LiveHouseFixture {
    let houseId: String
    let taskId: String
    /// The members' tokens, the creator first.
    let tokens: [String]
    let client: HTTPClient

    /// Registers one account per name (`<name>@example.org`), the first creates the house and
    /// the others join it.
    static func make(_ client: HTTPClient, members names: [String]) async throws -> LiveHouseFixture {
        var tokens: [String] = []
        for name in names {
            tokens.append(try await client.register("\(name)-\(UUID().uuidString.prefix(8))@example.org", displayName: name).token)
        }
        let created = try await client.send("POST", "/v1/houses", json: ["name": "Live House"], token: tokens[0])
        try #require(created.status == 201, "create: \(created.text)")
        let houseId = try #require(created.json["houseId"] as? String)
        let joinCode = try #require(created.json["joinCode"] as? String)
        for token in tokens.dropFirst() {
            let joined = try await client.send("POST", "/v1/houses/join", json: ["joinCode": joinCode], token: token)
            try #require(joined.status == 200, "join: \(joined.text)")
        }
        let room = try await client.send("POST", "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: tokens[0])
        try #require(room.status == 201, "room: \(room.text)")
        let roomId = try #require(room.json["roomId"] as? String)
        let task = try await client.send(
            "POST", "/v1/houses/\(houseId)/rooms/\(roomId)/tasks", json: ["name": "Dishes", "frequencyDays": 1, "points": 5], token: tokens[0])
        try #require(task.status == 201, "task: \(task.text)")
        return LiveHouseFixture(houseId: houseId, taskId: try #require(task.json["taskId"] as? String), tokens: tokens, client: client)
    }

    /// Member `member` completes the task; returns the completion's log position.
    @discardableResult
    func complete(by member: Int) async throws -> UInt64 {
        let done = try await client.send("POST", "/v1/houses/\(houseId)/tasks/\(taskId)/completions", token: tokens[member])
        try #require(done.status == 201, "complete: \(done.text)")
        return try #require((done.json["position"] as? NSNumber)?.uint64Value)
    }

    /// The topic of the house.
    var topic: String { "house:\(houseId)" }
}

extension LiveStreamClient.Snapshot {
    /// The positions of the events of `type`.
    func positions(of type: String) -> [UInt64] {
        events.filter { $0.type == type }.map(\.position)
    }
}
