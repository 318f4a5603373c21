import Foundation
import HTTPTypes
import HummingbirdTesting
import Testing
@testable import API

/// The workplace's review routes through HTTP: admins review accepted members with a form;
/// employees read only their own reviews; answers are checked against the form's questions;
/// a review keeps its questions whatever happens to the form later.
@Suite("Workplace review routes", .timeLimit(.minutes(3)))
struct WorkplaceReviewRouteTests {
    @Test func adminsReviewMembersAndEmployeesReadOnlyTheirOwn() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let (formId, questionIds) = try await acme.createForm(client)
            let submitted = try await client.send(.post, acme.path("/reviews"), json: [
                "employeeId": acme.bob.userId, "formId": formId,
                "answers": WorkplaceRouteFixture.answers(questionIds), "remark": " Keep it up ",
            ], token: acme.ann.token)
            #expect(submitted.status == .created && submitted.json["events"] as? [String] == ["workplace.reviewSubmitted"], "\(submitted.text)")
            let reviewId = try #require(submitted.json["reviewId"] as? String)

            // Read-your-writes: Bob sees it in his list, unnarrowed, at once.
            let bobs = try await client.send(.get, acme.path("/reviews"), token: acme.bob.token)
            #expect(bobs.status == .ok && bobs.items.count == 1 && bobs.json["next"] == nil, "\(bobs.text)")
            let review = try #require(bobs.items.first)
            #expect(review["reviewId"] as? String == reviewId && review["employeeId"] as? String == acme.bob.userId)
            #expect(review["formId"] as? String == formId && review["formName"] as? String == "Yearly" && review["remark"] as? String == "Keep it up")
            #expect((review["reviewer"] as? [String: Any])?["name"] as? String == "Ann" && review["submittedAt"] is String)
            let answers = review["answers"] as? [[String: Any]] ?? []
            #expect(answers.map { $0["kind"] as? String } == ["rating", "yesNo", "text"])
            #expect(answers.map { $0["question"] as? String } == ["How well do they work?", "Would you work with them again?", "What went well?"])
            #expect(answers[0]["value"] as? Int == 4 && answers[1]["value"] as? Bool == true && answers[2]["value"] as? String == "Good work")
            let one = try await client.send(.get, acme.path("/reviews/\(reviewId)"), token: acme.bob.token)
            #expect(one.status == .ok && one.json["reviewId"] as? String == reviewId)
            #expect(try await client.send(.get, acme.path("/reviews?employeeId=\(acme.bob.userId)"), token: acme.bob.token).items.count == 1)

            // Admins see every review, or one employee's.
            #expect(try await client.send(.get, acme.path("/reviews"), token: acme.ann.token).items.count == 1)
            #expect(try await client.send(.get, acme.path("/reviews?employeeId=\(acme.cat.userId)"), token: acme.ann.token).items.isEmpty)
            #expect(try await client.send(.get, acme.path("/reviews/\(reviewId)"), token: acme.ann.token).status == .ok)

            // Cat, an employee, sees none of Bob's.
            #expect(try await client.send(.get, acme.path("/reviews"), token: acme.cat.token).items.isEmpty)
            let othersList = try await client.send(.get, acme.path("/reviews?employeeId=\(acme.bob.userId)"), token: acme.cat.token)
            #expect(othersList.status == .forbidden && othersList.code == "not_an_admin")
            let othersOne = try await client.send(.get, acme.path("/reviews/\(reviewId)"), token: acme.cat.token)
            #expect(othersOne.status == .notFound && othersOne.code == "review_not_found", "as for an unknown id")
            for outsider in [acme.dan.token, acme.eve.token] {
                let refused = try await client.send(.get, acme.path("/reviews/\(reviewId)"), token: outsider)
                #expect(refused.status == .forbidden && refused.code == "not_a_member")
            }
            let unknown = try await client.send(.get, acme.path("/reviews/\(UUID())"), token: acme.ann.token)
            #expect(unknown.status == .notFound && unknown.code == "review_not_found")
        }
    }

    @Test func reviewsAreRefusedWithStableCodes() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let (formId, questionIds) = try await acme.createForm(client)
            func submit(_ employeeId: String, formId: String, answers: Any, remark: Any? = nil, token: String? = nil) async throws -> Reply {
                var body: [String: Any] = ["employeeId": employeeId, "formId": formId, "answers": answers]
                if let remark { body["remark"] = remark }
                return try await client.send(.post, acme.path("/reviews"), json: body, token: token ?? acme.ann.token)
            }
            let answers = WorkplaceRouteFixture.answers(questionIds)
            let byEmployee = try await submit(acme.cat.userId, formId: formId, answers: answers, token: acme.bob.token)
            #expect(byEmployee.status == .forbidden && byEmployee.code == "not_an_admin")
            for outsider in [acme.dan.token, acme.eve.token] {
                let refused = try await submit(acme.bob.userId, formId: formId, answers: answers, token: outsider)
                #expect(refused.status == .forbidden && refused.code == "not_a_member")
            }
            let pending = try await submit(acme.dan.userId, formId: formId, answers: answers)
            #expect(pending.status == .notFound && pending.code == "member_not_found", "a pending user is no member")
            let stranger = try await submit(acme.eve.userId, formId: formId, answers: answers)
            #expect(stranger.status == .notFound && stranger.code == "member_not_found")
            let noForm = try await submit(acme.bob.userId, formId: UUID().uuidString.lowercased(), answers: answers)
            #expect(noForm.status == .notFound && noForm.code == "form_not_found")
            let noOrganisation = try await client.send(.post, "/v1/organisations/\(UUID())/reviews",
                                                       json: ["employeeId": acme.bob.userId, "formId": formId, "answers": answers], token: acme.ann.token)
            #expect(noOrganisation.status == .notFound && noOrganisation.code == "organisation_not_found")

            for rating in [0, 6] {
                let outOfRange = try await submit(acme.bob.userId, formId: formId, answers: WorkplaceRouteFixture.answers(questionIds, rating: rating))
                #expect(outOfRange.status == .unprocessableContent && outOfRange.fieldsInError == ["answers[0].rating"], "\(rating): \(outOfRange.text)")
            }
            let wrongKind = try await submit(acme.bob.userId, formId: formId, answers: [
                ["questionId": questionIds[0], "yes": true], ["questionId": questionIds[1], "rating": 3], ["questionId": questionIds[2], "text": "Fine"],
            ])
            #expect(wrongKind.status == .unprocessableContent && Set(wrongKind.fieldsInError) == ["answers[0].rating", "answers[1].yes"], "\(wrongKind.text)")
            let both = try await submit(acme.bob.userId, formId: formId, answers: [
                ["questionId": questionIds[0], "rating": 3, "text": "three"], ["questionId": questionIds[1], "yes": false], ["questionId": questionIds[2], "text": "Fine"],
            ])
            #expect(both.status == .unprocessableContent && both.fieldsInError == ["answers[0]"], "\(both.text)")
            let missing = try await submit(acme.bob.userId, formId: formId, answers: Array(answers.prefix(2)))
            #expect(missing.status == .unprocessableContent && missing.fieldsInError == ["answers"], "\(missing.text)")
            let none = try await submit(acme.bob.userId, formId: formId, answers: [Any]())
            #expect(none.status == .unprocessableContent && none.fieldsInError.allSatisfy { $0 == "answers" } && none.fieldsInError.count == 3)
            let twice = try await submit(acme.bob.userId, formId: formId, answers: answers + [answers[0]])
            #expect(twice.status == .unprocessableContent && twice.fieldsInError == ["answers"])
            let stray = try await submit(acme.bob.userId, formId: formId, answers: answers + [["questionId": "nope", "text": "x"]])
            #expect(stray.status == .unprocessableContent && stray.fieldsInError == ["answers"])
            let huge = try await submit(acme.bob.userId, formId: formId,
                                        answers: WorkplaceRouteFixture.answers(questionIds, text: String(repeating: "t", count: 100_000)),
                                        remark: String(repeating: "r", count: 100_000))
            #expect(huge.status == .unprocessableContent && Set(huge.fieldsInError) == ["answers[2].text", "remark"], "\(huge.text)")

            for answers in [WorkplaceRouteFixture.answers(questionIds, rating: "four"), WorkplaceRouteFixture.answers(questionIds, yes: "yes")] {
                let wrongType = try await submit(acme.bob.userId, formId: formId, answers: answers)
                #expect(wrongType.status == .badRequest && wrongType.code == "malformed_request", "\(wrongType.text)")
            }
            let notAList = try await submit(acme.bob.userId, formId: formId, answers: "all good")
            #expect(notAList.status == .badRequest && notAList.code == "malformed_request")
            #expect(try await client.send(.get, acme.path("/reviews"), token: acme.ann.token).items.isEmpty, "nothing refused was stored")
        }
    }

    /// The review keeps the form's name and questions as they were: renaming the form,
    /// removing one of its questions and deleting it change nothing in it.
    @Test func aReviewKeepsItsQuestionsWhateverHappensToTheForm() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let ann = acme.ann.token
            let (formId, questionIds) = try await acme.createForm(client)
            let submitted = try await client.send(.post, acme.path("/reviews"), json: [
                "employeeId": acme.cat.userId, "formId": formId, "answers": WorkplaceRouteFixture.answers(questionIds, rating: 5, yes: false),
            ], token: ann)
            let reviewId = try #require(submitted.json["reviewId"] as? String, "\(submitted.text)")
            let path = acme.path("/reviews/\(reviewId)")
            let before = try await client.send(.get, path, token: acme.cat.token)
            #expect(before.status == .ok && before.json["remark"] == nil)
            let form = acme.path("/forms/\(formId)")
            #expect(try await client.send(.patch, form, json: ["name": "Renamed"], token: ann).status == .ok)
            #expect(try await client.send(.delete, form + "/questions/\(questionIds[1])", token: ann).status == .noContent)
            #expect(try await client.send(.delete, form, token: ann).status == .noContent)
            let after = try await client.send(.get, path, token: acme.cat.token)
            #expect(after.status == .ok && after.json["formName"] as? String == "Yearly")
            let answers = after.json["answers"] as? [[String: Any]] ?? []
            #expect(answers.map { $0["questionId"] as? String } == questionIds)
            #expect(answers[0]["value"] as? Int == 5 && answers[1]["value"] as? Bool == false)
            #expect(try JSONSerialization.jsonObject(with: after.body) as? NSDictionary == JSONSerialization.jsonObject(with: before.body) as? NSDictionary)
        }
    }

    @Test func reviewListsAreNewestFirstInPagesAndRetriesAnswerTheFirstReview() async throws {
        let server = try TestServer()
        defer { server.remove() }
        try await server.test { client in
            let acme = try await WorkplaceRouteFixture.make(client)
            let (formId, questionIds) = try await acme.createForm(client)
            var reviewIds: [String] = []
            for rating in 1...3 {
                let body: [String: Any] = [
                    "employeeId": acme.bob.userId, "formId": formId, "answers": WorkplaceRouteFixture.answers(questionIds, rating: rating),
                ]
                let key = UUID().uuidString
                let first = try await client.send(.post, acme.path("/reviews"), json: body, token: acme.ann.token, key: key)
                let retry = try await client.send(.post, acme.path("/reviews"), json: body, token: acme.ann.token, key: key)
                #expect(first.status == .created && retry.status == .created, "\(retry.text)")
                #expect(retry.json["reviewId"] as? String == first.json["reviewId"] as? String)
                #expect(retry.json["position"] as? Int == first.json["position"] as? Int)
                reviewIds.append(try #require(first.json["reviewId"] as? String))
            }
            let page1 = try await client.send(.get, acme.path("/reviews?limit=2"), token: acme.bob.token)
            #expect(page1.items.map { $0["reviewId"] as? String } == [reviewIds[2], reviewIds[1]], "\(page1.text)")
            let next = try #require(page1.json["next"] as? String)
            let page2 = try await client.send(.get, acme.path("/reviews?limit=2&cursor=\(next)"), token: acme.bob.token)
            #expect(page2.items.map { $0["reviewId"] as? String } == [reviewIds[0]] && page2.json["next"] == nil)
            let badLimit = try await client.send(.get, acme.path("/reviews?limit=501"), token: acme.bob.token)
            #expect(badLimit.status == .badRequest && badLimit.code == "invalid_limit")
        }
    }
}
