import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// The workplace's review-form routes through HTTP: admins create, rename, edit the questions
/// of and delete forms; nobody else sees them; every refusal with its status and code.
@Suite("Workplace review-form routes", .timeLimit(.minutes(3)))
struct WorkplaceReviewFormRouteTests {
    @Test func adminsCreateRenameEditReorderAndDeleteForms() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let ann = acme.ann.token
            let created = try await client.send(.post, acme.path("/forms"), json: [
                "name": "Yearly", "questions": [["text": "How well?", "kind": "rating"], ["text": "Again?", "kind": "yesNo"]],
            ], token: ann)
            #expect(created.status == .created && created.json["events"] as? [String] == ["workplace.formCreated"], "\(created.text)")
            let formId = try #require(created.json["formId"] as? String)
            let questions = try #require(created.json["questions"] as? [[String: Any]])
            #expect(questions.map { $0["kind"] as? String } == ["rating", "yesNo"] && questions.map { $0["text"] as? String } == ["How well?", "Again?"])
            let first = try #require(questions.first?["questionId"] as? String), second = try #require(questions.last?["questionId"] as? String)
            let form = acme.path("/forms/\(formId)")

            let list = try await client.send(.get, acme.path("/forms"), token: ann)
            #expect(list.status == .ok && list.items.map { $0["formId"] as? String } == [formId], "\(list.text)")
            let renamed = try await client.send(.patch, form, json: ["name": "Half-yearly"], token: ann)
            #expect(renamed.status == .ok && renamed.json["events"] as? [String] == ["workplace.formRenamed"])
            #expect(try await client.send(.get, form, token: ann).json["name"] as? String == "Half-yearly")

            let added = try await client.send(.post, form + "/questions", json: ["text": "What went well?", "kind": "text"], token: ann)
            #expect(added.status == .created && added.json["events"] as? [String] == ["workplace.questionAdded"], "\(added.text)")
            let third = try #require(added.json["questionId"] as? String)
            func order() async throws -> [String] {
                let read = try await client.send(.get, form, token: ann)
                return (read.json["questions"] as? [[String: Any]] ?? []).compactMap { $0["questionId"] as? String }
            }
            #expect(try await order() == [first, second, third])
            let reordered = try await client.send(.put, form + "/question-order", json: ["questionIds": [third, first, second]], token: ann)
            #expect(reordered.status == .ok && reordered.json["events"] as? [String] == ["workplace.questionsReordered"], "\(reordered.text)")
            #expect(try await order() == [third, first, second])
            #expect(try await client.send(.delete, form + "/questions/\(second)", token: ann).status == .noContent)
            #expect(try await order() == [third, first])

            #expect(try await client.send(.delete, form, token: ann).status == .noContent)
            let gone = try await client.send(.get, form, token: ann)
            #expect(gone.status == .notFound && gone.code == "form_not_found")
            #expect(try await client.send(.get, acme.path("/forms"), token: ann).items.isEmpty)
            let deletedAgain = try await client.send(.delete, form, token: ann)
            #expect(deletedAgain.status == .notFound && deletedAgain.code == "form_not_found")
        }
    }

    @Test func formEditsAreRefusedWithStableCodes() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let ann = acme.ann.token
            let (formId, questionIds) = try await acme.createForm(client)
            let form = acme.path("/forms/\(formId)")

            let taken = try await client.send(.post, acme.path("/forms"), json: ["name": "YEARLY", "questions": [["text": "Q", "kind": "text"]]], token: ann)
            #expect(taken.status == .conflict && taken.code == "form_name_taken")
            let badKind = try await client.send(.post, acme.path("/forms"), json: ["name": "Other", "questions": [["text": "Q", "kind": "stars"]]], token: ann)
            #expect(badKind.status == .unprocessableContent && badKind.fieldsInError == ["questions[0].kind"], "\(badKind.text)")
            let noQuestions = try await client.send(.post, acme.path("/forms"), json: ["name": "Other", "questions": []], token: ann)
            #expect(noQuestions.status == .unprocessableContent && noQuestions.fieldsInError == ["questions"])
            let huge = try await client.send(.post, acme.path("/forms"), json: [
                "name": "Other", "questions": [["text": String(repeating: "q", count: 100_000), "kind": "text"]],
            ], token: ann)
            #expect(huge.status == .unprocessableContent && huge.fieldsInError == ["questions[0].text"])
            let wrongType = try await client.send(.post, acme.path("/forms"), json: ["name": "Other", "questions": "none"], token: ann)
            #expect(wrongType.status == .badRequest && wrongType.code == "malformed_request")
            let hugeAdded = try await client.send(.post, form + "/questions", json: ["text": String(repeating: "q", count: 100_000), "kind": "yes"], token: ann)
            #expect(hugeAdded.status == .unprocessableContent && Set(hugeAdded.fieldsInError) == ["text", "kind"], "\(hugeAdded.text)")
            let renameTaken = try await client.send(.post, acme.path("/forms"), json: ["name": "Other", "questions": [["text": "Q", "kind": "text"]]], token: ann)
            #expect(renameTaken.status == .created)
            let clash = try await client.send(.patch, form, json: ["name": "other"], token: ann)
            #expect(clash.status == .conflict && clash.code == "form_name_taken")

            let partial = try await client.send(.put, form + "/question-order", json: ["questionIds": Array(questionIds.prefix(2))], token: ann)
            #expect(partial.status == .unprocessableContent && partial.fieldsInError == ["questionIds"], "\(partial.text)")
            let unknownQuestion = try await client.send(.delete, form + "/questions/\(UUID())", token: ann)
            #expect(unknownQuestion.status == .notFound && unknownQuestion.code == "question_not_found")
            let unknownForm = try await client.send(.patch, acme.path("/forms/\(UUID())"), json: ["name": "X"], token: ann)
            #expect(unknownForm.status == .notFound && unknownForm.code == "form_not_found")
            for questionId in questionIds.dropLast() {
                #expect(try await client.send(.delete, form + "/questions/\(questionId)", token: ann).status == .noContent)
            }
            let last = try await client.send(.delete, form + "/questions/\(questionIds[2])", token: ann)
            #expect(last.status == .conflict && last.code == "last_question")

            for (user, code) in [(acme.bob, "not_an_admin"), (acme.dan, "not_a_member"), (acme.eve, "not_a_member")] {
                for (method, path) in [(HTTPRequest.Method.get, acme.path("/forms")), (.get, form), (.delete, form)] {
                    let refused = try await client.send(method, path, token: user.token)
                    #expect(refused.status == .forbidden && refused.code == code, "\(method) \(path): \(refused.text)")
                }
                let create = try await client.send(.post, acme.path("/forms"), json: ["name": "Mine", "questions": [["text": "Q", "kind": "text"]]], token: user.token)
                #expect(create.status == .forbidden && create.code == code)
            }
            #expect(try await client.send(.get, acme.path("/forms"), token: ann).items.count == 2)
        }
    }
}
