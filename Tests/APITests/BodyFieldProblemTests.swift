import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// A JSON body the generated code cannot decode into its schema (a required field missing or
/// null, a value of the wrong JSON type, a fractional integer) is 400 `malformed_request` that
/// names the field in `errors[{field, message}]`, as every validation problem does; the field is
/// its path in the body, dotted, array items by index (`location.latitude`, `answers[0].rating`).
/// A body that is not JSON at all, or not an object, names no field.
@Suite("Body field problems", .timeLimit(.minutes(3)))
struct BodyFieldProblemTests {
    /// A route, a body it cannot decode, and the field and a word of the message it must name.
    private struct Case {
        let method: HTTPRequest.Method
        let path: String
        let body: String
        let field: String
        let says: String
    }

    private static func cases(houseId: String, roomId: String, taskId: String) -> [Case] {
        let tasks = "/v1/houses/\(houseId)/rooms/\(roomId)/tasks"
        let any = UUID().uuidString.lowercased()
        let report = #""title":"Lamp out","description":"Dark","category":"attention""#
        return [
            Case(method: .post, path: "/v1/accounts", body: #"{"email":"cy@example.org","password":"correct horse"}"#,
                 field: "displayName", says: "required"),
            Case(method: .post, path: tasks, body: #"{"name":"Dishes","frequencyDays":1.5,"points":3}"#, field: "frequencyDays", says: "integer"),
            Case(method: .post, path: tasks, body: #"{"name":"Dishes","frequencyDays":"7","points":3}"#, field: "frequencyDays", says: "integer"),
            Case(method: .post, path: tasks, body: #"{"name":null,"frequencyDays":7,"points":3}"#, field: "name", says: "null"),
            Case(method: .post, path: tasks, body: #"{"name":"Dishes","frequencyDays":7}"#, field: "points", says: "required"),
            Case(method: .patch, path: "/v1/houses/\(houseId)/tasks/\(taskId)", body: #"{"points":2.5}"#, field: "points", says: "integer"),
            Case(method: .post, path: "/v1/neighbourhood/reports", body: "{\(report),\"location\":{\"latitude\":52.1}}",
                 field: "location.longitude", says: "required"),
            Case(method: .post, path: "/v1/neighbourhood/reports", body: "{\(report),\"location\":{\"latitude\":\"north\",\"longitude\":4.9}}",
                 field: "location.latitude", says: "number"),
            Case(method: .post, path: "/v1/organisations/\(any)/reviews",
                 body: #"{"employeeId":"e","formId":"f","answers":[{"questionId":"q","rating":4},{"questionId":"r","rating":"five"}]}"#,
                 field: "answers[1].rating", says: "integer"),
            Case(method: .post, path: "/v1/organisations/\(any)/reviews", body: #"{"employeeId":"e","formId":"f","answers":[{"rating":4}]}"#,
                 field: "answers[0].questionId", says: "required"),
            Case(method: .post, path: "/v1/organisations", body: #"{"name":"Acme","locations":[{"name":"Depot"},{}]}"#,
                 field: "locations[1].name", says: "required"),
            Case(method: .post, path: "/v1/quiz/questions", body: #"{"text":"Two?","answers":["one",2],"correctAnswer":"one"}"#,
                 field: "answers[1]", says: "string"),
            Case(method: .post, path: "/v1/quiz/games/\(any)/answers", body: #"{"index":"0","answer":"one"}"#, field: "index", says: "integer"),
            Case(method: .patch, path: "/v1/organisations/\(any)/members/\(any)", body: #"{"admin":"yes"}"#, field: "admin", says: "true or false"),
            Case(method: .put, path: "/v1/me/password", body: #"{"currentPassword":"correct horse"}"#, field: "newPassword", says: "required"),
            Case(method: .post, path: "/v1/houses", body: #"{"name":{"en":"Canal House"}}"#, field: "name", says: "string"),
        ]
    }

    @Test func aFieldThatDoesNotDecodeIsNamedOnEveryRoute() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            let house = try await client.send(.post, "/v1/houses", json: ["name": "Canal House"], token: ann)
            let houseId = try #require(house.json["houseId"] as? String)
            let room = try await client.send(.post, "/v1/houses/\(houseId)/rooms", json: ["name": "Kitchen"], token: ann)
            let roomId = try #require(room.json["roomId"] as? String)
            let task = try await client.send(
                .post, "/v1/houses/\(houseId)/rooms/\(roomId)/tasks", json: ["name": "Dishes", "frequencyDays": 7, "points": 3], token: ann)
            let taskId = try #require(task.json["taskId"] as? String, "\(task.text)")
            let head = try await server.runtime.log.headPosition()
            for item in Self.cases(houseId: houseId, roomId: roomId, taskId: taskId) {
                let reply = try await client.send(item.method, item.path, raw: item.body, token: ann)
                let what = "\(item.method) \(item.path) \(item.body)"
                #expect(reply.status == .badRequest && reply.code == "malformed_request", "\(what): \(reply.text)")
                #expect(reply.headers[.contentType] == "application/problem+json", "\(what)")
                let errors = reply.json["errors"] as? [[String: String]] ?? []
                #expect(errors.map { $0["field"] } == [item.field], "\(what): \(reply.text)")
                #expect(errors.first?["message"]?.contains(item.says) == true, "\(what): \(reply.text)")
                #expect((reply.json["detail"] as? String)?.contains(item.field) == true, "\(what): \(reply.text)")
            }
            #expect(try await server.runtime.log.headPosition() == head, "no undecodable body was carried out")
        }
    }

    /// What names no field keeps `malformed_request` without `errors`: a body that is not JSON,
    /// and JSON that is not the object the route takes.
    @Test func aBodyThatIsNoJSONObjectNamesNoField() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let (_, ann) = try await client.register("ann@example.org")
            for (body, detail) in [(#"{"name":"#, "not valid JSON"), ("[]", "the body should be"), (#""Canal House""#, "the body should be")] {
                let reply = try await client.send(.post, "/v1/houses", raw: body, token: ann)
                #expect(reply.status == .badRequest && reply.code == "malformed_request", "\(body): \(reply.text)")
                #expect(reply.json["errors"] == nil, "\(body): \(reply.text)")
                #expect(reply.text.contains(detail), "\(body): \(reply.text)")
            }
        }
    }

    /// The contract says so: a 400's `malformed_request` names the field as validation problems
    /// do, in the path form the server uses.
    @Test func theContractDocumentsTheFieldsOfAMalformedBody() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        let responses = try #require(components["responses"] as? [String: [String: Any]])
        let badRequest = try #require(responses["BadRequest"]?["description"] as? String)
        #expect(badRequest.contains("errors") && badRequest.contains("answers[0].rating"), "\(badRequest)")
        let errors = try ContractDocument().property("Problem", "errors")
        let described = try #require(errors["description"] as? String)
        #expect(described.contains("malformed_request") && described.contains("location.latitude"), "\(described)")
    }
}
