import Foundation
import HummingbirdTesting
import Testing
@testable import API

/// An Idempotency-Key names one request: its retry is answered as the first attempt was, with
/// nothing appended; the key reused for another request (another route, another body) is 422
/// `idempotency_key_reused`, and the other request is not carried out.
@Suite("Idempotency-Key reuse", .timeLimit(.minutes(3)))
struct IdempotencyKeyReuseTests {
    /// Ann's house with a kitchen and a task. Returns her token and the ids.
    private func house(_ client: any TestClientProtocol) async throws -> (ann: String, houseId: String, roomId: String, taskId: String, code: String) {
        let ann = try await client.register("ann@example.org", displayName: "Ann")
        let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann.token)
        try #require(created.status == .created, "\(created.text)")
        let houseId = try #require(created.json["houseId"] as? String)
        let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: ann.token)
        let roomId = try #require(room.json["roomId"] as? String)
        let task = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                         json: ["name": "Dishes", "frequencyDays": 1, "points": 5], token: ann.token)
        return (ann.token, houseId, roomId, try #require(task.json["taskId"] as? String), try #require(created.json["joinCode"] as? String))
    }

    private func roomNames(_ client: any TestClientProtocol, _ token: String) async throws -> [String] {
        let mine = try await client.send(.get, "/v1/me/house", token: token)
        return (mine.json["rooms"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
    }

    @Test func aKeyUsedToRenameARoomCannotRemoveIt() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (ann, houseId, roomId, _, _) = try await house(client)
            let key = UUID().uuidString
            let room = "/v1/houses/\(houseId)/rooms/\(roomId)"
            let renamed = try await client.send(.patch, room, json: ["name": "Galley"], token: ann, key: key)
            #expect(renamed.status == .ok, "\(renamed.text)")
            let head = try server.runtime.log.lmdb.headPosition()

            let removed = try await client.send(.delete, room, token: ann, key: key)
            #expect(removed.status == .unprocessableContent && removed.code == "idempotency_key_reused" && removed.isProblem, "\(removed.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head, "the removal was not carried out")
            #expect(try await roomNames(client, ann) == ["Galley"])

            // The rename's own retry, even re-serialised with other spacing, still replays.
            let retry = try await client.send(.patch, room, raw: #"{ "name" : "Galley" }"#, token: ann, key: key)
            #expect(retry.status == .ok && retry.json["position"] as? Int == renamed.json["position"] as? Int, "\(retry.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head, "a retry appends nothing")
        }
    }

    @Test func aKeyUsedForOneTaskEditCannotMakeAnother() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (ann, houseId, roomId, taskId, _) = try await house(client)
            let key = UUID().uuidString
            let task = "/v1/houses/\(houseId)/tasks/\(taskId)"
            let first = try await client.send(.patch, task, json: ["points": 8], token: ann, key: key)
            #expect(first.status == .ok, "\(first.text)")
            let head = try server.runtime.log.lmdb.headPosition()

            let other = try await client.send(.patch, task, json: ["points": 3], token: ann, key: key)
            #expect(other.status == .unprocessableContent && other.code == "idempotency_key_reused", "\(other.text)")
            let retry = try await client.send(.patch, task, json: ["points": 8], token: ann, key: key)
            #expect(retry.status == .ok && retry.json["position"] as? Int == first.json["position"] as? Int, "\(retry.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head)
            let tasks = try await client.send(.get, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks", token: ann)
            #expect((tasks.json["tasks"] as? [[String: Any]])?.first?["points"] as? Int == 8, "\(tasks.text)")
        }
    }

    @Test func aKeyUsedToJoinCannotLeave() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, houseId, _, _, code) = try await house(client)
            let bob = try await client.register("bob@example.org", displayName: "Bob")
            let key = UUID().uuidString
            let joined = try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: bob.token, key: key)
            #expect(joined.status == .ok, "\(joined.text)")
            let head = try server.runtime.log.lmdb.headPosition()

            let left = try await client.send(.post, "/v1/houses/\(houseId)/leave", token: bob.token, key: key)
            #expect(left.status == .unprocessableContent && left.code == "idempotency_key_reused", "\(left.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head, "bob did not leave")
            let mine = try await client.send(.get, "/v1/me/house", token: bob.token)
            #expect(mine.status == .ok && mine.json["houseId"] as? String == houseId)

            let retry = try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: bob.token, key: key)
            #expect(retry.status == .ok && retry.json["events"] as? [String] == ["household.memberJoined"], "\(retry.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head)
        }
    }

    @Test func anotherActorsKeyIsRefusedNotReplayed() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (ann, houseId, roomId, _, code) = try await house(client)
            let bob = try await client.register("bob@example.org", displayName: "Bob")
            _ = try await client.send(.post, "/v1/houses/join", json: ["joinCode": code], token: bob.token)
            let key = UUID().uuidString
            let room = "/v1/houses/\(houseId)/rooms/\(roomId)"
            #expect(try await client.send(.patch, room, json: ["name": "Galley"], token: ann, key: key).status == .ok)
            let head = try server.runtime.log.lmdb.headPosition()
            // The very same request by another member: not a retry of Ann's.
            let bobs = try await client.send(.patch, room, json: ["name": "Galley"], token: bob.token, key: key)
            #expect(bobs.status == .unprocessableContent && bobs.code == "idempotency_key_reused", "\(bobs.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head)
        }
    }

    /// An account command that changed nothing is recorded too, and its retry is a 200 again.
    @Test func aProfileUpdateThatChangedNothingAnswersItsRetry() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, token) = try await client.register("ann@example.org", displayName: "Ann")
            let key = UUID().uuidString
            let head = try server.runtime.log.lmdb.headPosition()
            let first = try await client.send(.patch, "/v1/me", json: ["displayName": "Ann"], token: token, key: key)
            let retry = try await client.send(.patch, "/v1/me", json: ["displayName": "Ann"], token: token, key: key)
            #expect(first.status == .ok && retry.status == .ok, "\(first.text) \(retry.text)")
            let other = try await client.send(.patch, "/v1/me", json: ["displayName": "Annie"], token: token, key: key)
            #expect(other.status == .unprocessableContent && other.code == "idempotency_key_reused", "\(other.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head)
        }
    }

    /// A command that decides nothing is recorded under its key: its retry is answered the
    /// same even after the data changed, and the key cannot then be taken for another request.
    @Test func aRequestThatChangedNothingKeepsItsKey() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (ann, houseId, roomId, _, _) = try await house(client)
            let key = UUID().uuidString
            let room = "/v1/houses/\(houseId)/rooms/\(roomId)"
            let same = try await client.send(.patch, room, json: ["name": "Kitchen"], token: ann, key: key)
            #expect(same.status == .ok && same.json["events"] as? [String] == [], "\(same.text)")
            let head = try server.runtime.log.lmdb.headPosition()

            let removed = try await client.send(.delete, room, token: ann, key: key)
            #expect(removed.status == .unprocessableContent && removed.code == "idempotency_key_reused", "\(removed.text)")
            #expect(try await client.send(.patch, room, json: ["name": "Galley"], token: ann).status == .ok)
            let retry = try await client.send(.patch, room, json: ["name": "Kitchen"], token: ann, key: key)
            #expect(retry.status == .ok && retry.json["events"] as? [String] == [], "the retry answers as the first try did: \(retry.text)")
            #expect(try await roomNames(client, ann) == ["Galley"], "the retry did not rename the room back")
            #expect(try server.runtime.log.lmdb.headPosition() == head + 1, "only the keyless rename appended")
        }
    }
}
