import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing
@testable import API
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Optimistic concurrency over HTTP (SPEC §1): an entity GET answers `ETag` = its stream version,
/// and a command with a stale `If-Match` is 412 `precondition_failed` with nothing appended.
@Suite("ETag and If-Match", .timeLimit(.minutes(3)))
struct ETagRouteTests {
    /// A house of Ann's with one room: its id, the room's, and Ann's token.
    private func house(_ client: any TestClientProtocol) async throws -> (houseId: String, roomId: String, token: String) {
        let token = try await client.register("ann@example.org").token
        let created = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: token)
        let houseId = try #require(created.json["houseId"] as? String, "\(created.text)")
        let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: token)
        return (houseId, try #require(room.json["roomId"] as? String, "\(room.text)"), token)
    }

    /// The log's version of `stream` as a strong tag.
    private func version(_ server: TestServer, _ stream: String) throws -> String? {
        try server.runtime.log.lmdb.streamVersion(stream).map { "\"\($0)\"" }
    }

    @Test func anEntityAnswersItsStreamVersionAndACommandMovesIt() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (houseId, roomId, token) = try await house(client)
            let stream = "house-\(houseId)"
            let before = try await client.send(.get, "/v1/houses/\(houseId)", token: token)
            #expect(before.status == .ok && before.headers[.eTag] != nil)
            #expect(before.headers[.eTag] == (try version(server, stream)), "the house's stream version")
            #expect(try await client.send(.get, "/v1/me/house", token: token).headers[.eTag] == before.headers[.eTag])
            let renamed = try await client.send(.patch, "/v1/houses/\(houseId)/rooms/\(roomId)", json: ["name": "Pantry"], token: token)
            #expect(renamed.status == .ok, "a command without If-Match works as ever: \(renamed.text)")
            let after = try await client.send(.get, "/v1/houses/\(houseId)", token: token)
            let moved = try version(server, stream)
            #expect(after.headers[.eTag] == moved && after.headers[.eTag] != before.headers[.eTag])
        }
    }

    @Test func aStaleIfMatchIs412AndAppendsNothing() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (houseId, roomId, token) = try await house(client)
            let held = try #require(try await client.send(.get, "/v1/houses/\(houseId)", token: token).headers[.eTag])
            // Someone else changes the house meanwhile.
            #expect(try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Attic"], token: token).status == .created)
            let head = try server.runtime.log.lmdb.headPosition()
            let streamVersion = try server.runtime.log.lmdb.streamVersion("house-\(houseId)")
            let stale = try await client.send(
                .patch, "/v1/houses/\(houseId)/rooms/\(roomId)", json: ["name": "Pantry"], token: token, ifMatch: held)
            #expect(stale.status == .preconditionFailed && stale.code == "precondition_failed" && stale.isProblem, "\(stale.text)")
            #expect(try server.runtime.log.lmdb.headPosition() == head, "nothing appended")
            #expect(try server.runtime.log.lmdb.streamVersion("house-\(houseId)") == streamVersion)
            let rooms = try await client.send(.get, "/v1/houses/\(houseId)", token: token).json["rooms"] as? [[String: Any]]
            #expect(rooms?.compactMap { $0["name"] as? String }.sorted() == ["Attic", "Kitchen"], "the room kept its name")
        }
    }

    @Test func theCurrentIfMatchIsAcceptedAndTheNewETagDiffers() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (houseId, roomId, token) = try await house(client)
            let held = try #require(try await client.send(.get, "/v1/houses/\(houseId)", token: token).headers[.eTag])
            let renamed = try await client.send(
                .patch, "/v1/houses/\(houseId)/rooms/\(roomId)", json: ["name": "Pantry"], token: token, ifMatch: held)
            #expect(renamed.status == .ok, "\(renamed.text)")
            let now = try #require(try await client.send(.get, "/v1/houses/\(houseId)", token: token).headers[.eTag])
            let moved = try version(server, "house-\(houseId)")
            #expect(now != held && now == moved)
            // The new tag is current; then `*` asks only that the house exist, whatever its version.
            for ifMatch in [now, "*"] {
                let task = try await client.send(.post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks",
                                                 json: ["name": "Dishes", "frequencyDays": 1, "points": 2], token: token, ifMatch: ifMatch)
                #expect(task.status == .created, "If-Match \(ifMatch): \(task.text)")
            }
        }
    }

    @Test func aMalformedIfMatchIs400AndATagNeverIssuedIs412() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (houseId, roomId, token) = try await house(client)
            let current = try #require(try await client.send(.get, "/v1/houses/\(houseId)", token: token).headers[.eTag])
            let version = current.dropFirst().dropLast()
            let head = try server.runtime.log.lmdb.headPosition()
            let path = "/v1/houses/\(houseId)/rooms/\(roomId)"
            for malformed in [String(version), "\"\(version)", "\"1\", \"2\"", "W/", "**", "\"a b\""] {
                let reply = try await client.send(.patch, path, json: ["name": "Pantry"], token: token, ifMatch: malformed)
                #expect(reply.status == .badRequest && reply.code == "invalid_if_match" && reply.isProblem, "\(malformed): \(reply.text)")
            }
            // Well-formed, but not a tag this server issues for the current version: strong
            // comparison, so neither the weak form of the current tag nor "007" for 7 matches.
            for unmatchable in ["W/\(current)", "\"0\(version)\"", "\"abc\"", "\"\(UInt64.max)0\""] {
                let reply = try await client.send(.patch, path, json: ["name": "Pantry"], token: token, ifMatch: unmatchable)
                #expect(reply.status == .preconditionFailed && reply.code == "precondition_failed", "\(unmatchable): \(reply.text)")
            }
            #expect(try server.runtime.log.lmdb.headPosition() == head, "nothing appended")
        }
    }

    /// Two editors hold the same ETag and send their changes at once: exactly one lands. The two
    /// requests race for real (both sent before either is answered) in at least one round.
    @Test func twoRacingEditorsWithTheSameETagHaveExactlyOneWinner() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (houseId, roomId, token) = try await house(client)
            let port = try #require(client.port)
            let base = "http://\(server.runtime.configuration.host):\(port)"
            var raced = 0
            for round in 0..<20 where raced < 3 {
                let held = try #require(try await client.send(.get, "/v1/houses/\(houseId)", token: token).headers[.eTag])
                let head = try server.runtime.log.lmdb.headPosition()
                let replies = try await withThrowingTaskGroup(of: TimedReply.self) { group in
                    for editor in 0..<2 {
                        group.addTask {
                            try await TimedReply.send(base: base, method: "PATCH", path: "/v1/houses/\(houseId)/rooms/\(roomId)",
                                                      json: ["name": "Room \(round)-\(editor)"], token: token, ifMatch: held)
                        }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(replies.map(\.status).sorted() == [200, 412], "round \(round): \(replies.map(\.status))")
                #expect(try server.runtime.log.lmdb.headPosition() == head + 1, "one rename appended")
                if replies.map(\.sent).max()! < replies.map(\.answered).min()! { raced += 1 }
            }
            #expect(raced > 0, "both editors' requests were in flight at once at least once")
        }
    }

    /// Every app's entity answers its stream's version, and a stale If-Match on a command under it
    /// is refused; the commands' own routes stay as they were without one.
    @Test func everyAppsEntityCarriesItsVersion() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (userId, ann) = try await client.register("ann@example.org", extra: ["postcode": "1012AB"])
            let log = server.runtime.log.lmdb
            // The caller's own account.
            let me = try await client.send(.get, "/v1/me", token: ann)
            #expect(me.headers[.eTag] == (try version(server, "account-\(userId)")))
            #expect(try await client.send(.patch, "/v1/me", json: ["displayName": "Annie"], token: ann).status == .ok)
            let staleMe = try await client.send(.patch, "/v1/me", json: ["displayName": "Ann"], token: ann, ifMatch: me.headers[.eTag])
            #expect(staleMe.status == .preconditionFailed, "\(staleMe.text)")
            let meNow = try await client.send(.get, "/v1/me", token: ann).headers[.eTag]
            #expect(meNow == (try version(server, "account-\(userId)")))
            #expect(try await client.send(.patch, "/v1/me", json: ["displayName": "Ann"], token: ann, ifMatch: meNow).status == .ok)

            // A photo group, and a message posted under it.
            let group = try #require(try await client.send(.post, "/v1/groups", json: ["name": "Holiday"], token: ann).json["groupId"] as? String)
            let groupTag = try await client.send(.get, "/v1/groups/\(group)", token: ann).headers[.eTag]
            let groupVersion = try version(server, "group-\(group)")
            #expect(groupTag != nil && groupTag == groupVersion)
            #expect(try await client.send(.post, "/v1/groups/\(group)/messages", json: ["text": "Hi"], token: ann, ifMatch: groupTag).status == .created)
            let head = try log.headPosition()
            let staleMessage = try await client.send(.post, "/v1/groups/\(group)/messages", json: ["text": "Hi again"], token: ann, ifMatch: groupTag)
            #expect(staleMessage.status == .preconditionFailed)
            #expect(try log.headPosition() == head)

            // A report in Ann's neighbourhood, and a reply under it.
            let posted = try await client.send(.post, "/v1/neighbourhood/reports", json: [
                "title": "Bike stolen", "description": "Blue", "category": "attention", "location": ["latitude": 52.37, "longitude": 4.89],
            ], token: ann)
            let report = try #require(posted.json["reportId"] as? String, "\(posted.text)")
            let reportTag = try await client.send(.get, "/v1/neighbourhood/reports/\(report)", token: ann).headers[.eTag]
            let reportVersion = try version(server, "report-\(report)")
            #expect(reportTag != nil && reportTag == reportVersion)
            #expect(try await client.send(.post, "/v1/neighbourhood/reports/\(report)/replies", json: ["message": "Seen it"], token: ann).status == .created)
            let staleDelete = try await client.send(.delete, "/v1/neighbourhood/reports/\(report)", token: ann, ifMatch: reportTag)
            #expect(staleDelete.status == .preconditionFailed, "\(staleDelete.text)")
            #expect(try await client.send(.get, "/v1/neighbourhood/reports/\(report)", token: ann).status == .ok, "not deleted")

            // An organisation, and a location added under it.
            let registered = try await client.send(.post, "/v1/organisations", json: ["name": "Acme", "locations": [["name": "Amsterdam"]]], token: ann)
            let organisation = try #require(registered.json["organisationId"] as? String, "\(registered.text)")
            let organisationTag = try await client.send(.get, "/v1/organisations/\(organisation)", token: ann).headers[.eTag]
            let organisationVersion = try version(server, "organisation-\(organisation)")
            #expect(organisationTag != nil && organisationTag == organisationVersion)
            let added = try await client.send(.post, "/v1/organisations/\(organisation)/locations", json: ["name": "Utrecht"], token: ann, ifMatch: organisationTag)
            #expect(added.status == .created, "\(added.text)")
            let staleLocation = try await client.send(.post, "/v1/organisations/\(organisation)/locations", json: ["name": "Delft"], token: ann, ifMatch: organisationTag)
            #expect(staleLocation.status == .preconditionFailed, "\(staleLocation.text)")
        }
    }
}

/// A reply of the in-process server over its real socket, with when it was sent and answered.
private struct TimedReply: Sendable {
    let status: Int
    let sent: ContinuousClock.Instant
    let answered: ContinuousClock.Instant

    static func send(base: String, method: String, path: String, json: [String: String], token: String, ifMatch: String) async throws -> TimedReply {
        var request = URLRequest(url: URL(string: base + path)!)
        request.httpMethod = method
        request.httpBody = try JSONSerialization.data(withJSONObject: json)
        request.timeoutInterval = 30
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        request.setValue(ifMatch, forHTTPHeaderField: "If-Match")
        let sent = ContinuousClock.now
        let (_, response) = try await URLSession.shared.data(for: request)
        return TimedReply(status: (response as? HTTPURLResponse)?.statusCode ?? 0, sent: sent, answered: .now)
    }
}

extension TestClientProtocol {
    /// `send` with an `If-Match` header (none when nil).
    func send(_ method: HTTPRequest.Method, _ uri: String, json: Any? = nil, token: String, ifMatch: String?) async throws -> Reply {
        var headers: HTTPFields = [.authorization: "Bearer \(token)"]
        var body: ByteBuffer?
        if let json {
            body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
            headers[.contentType] = "application/json"
        }
        if let ifMatch { headers[.ifMatch] = ifMatch }
        let response = try await execute(uri: uri, method: method, headers: headers, body: body)
        return Reply(status: response.status, headers: response.headers, body: Data(buffer: response.body))
    }
}
