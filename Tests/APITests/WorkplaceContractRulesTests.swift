import EventSourcing
import Foundation
import Testing
import Workplace
@testable import API

/// openapi.yaml states the workplace decider's rules: its lengths and counts are
/// `WorkplaceLimits`, its text patterns are the ones `ContractRulesTests` pins to `TextKind`,
/// and the question kinds are `QuestionKind`'s. A rule changed on one side fails here.
@Suite("The contract states the workplace's rules", .timeLimit(.minutes(3)))
struct WorkplaceContractRulesTests {
    let contract: ContractDocument

    init() throws {
        contract = try ContractDocument()
    }

    @Test func lengthsAndCountsAreTheWorkplaceLimits() throws {
        #expect(try contract.lengths("NewOrganisation", "name") == WorkplaceLimits.organisationNameCharacters)
        #expect(try contract.lengths("LocationName", "name") == WorkplaceLimits.locationNameCharacters)
        #expect(try contract.lengths("OrganisationJoinRequest", "name") == WorkplaceLimits.memberNameCharacters)
        #expect(try contract.lengths("OrganisationJoinRequest", "employeeNumber") == WorkplaceLimits.employeeNumberCharacters)
        #expect(try contract.lengths("JoinRequestCorrection", "name") == WorkplaceLimits.memberNameCharacters)
        #expect(try contract.lengths("JoinRequestCorrection", "employeeNumber") == WorkplaceLimits.employeeNumberCharacters)
        #expect(try contract.lengths("NewReviewForm", "name") == WorkplaceLimits.formNameCharacters)
        #expect(try contract.lengths("ReviewFormName", "name") == WorkplaceLimits.formNameCharacters)
        #expect(try contract.lengths("NewReviewQuestion", "text") == WorkplaceLimits.questionCharacters)
        #expect(try contract.lengths("ReviewAnswerInput", "text") == WorkplaceLimits.answerTextCharacters)
        #expect(try contract.lengths("NewReview", "remark") == WorkplaceLimits.remarkCharacters)
        #expect(try contract.lengths("NewNewsItem", "title") == WorkplaceLimits.newsTitleCharacters)
        #expect(try contract.lengths("NewNewsItem", "text") == WorkplaceLimits.newsTextCharacters)
        let rating = try contract.property("ReviewAnswerInput", "rating")
        #expect((rating["minimum"] as? Int ?? 0)...(rating["maximum"] as? Int ?? 0) == WorkplaceLimits.rating)
        let locations = try contract.property("NewOrganisation", "locations")
        #expect(locations["minItems"] as? Int == 1 && locations["maxItems"] as? Int == WorkplaceLimits.locationsPerOrganisationMax)
        let questions = try contract.property("NewReviewForm", "questions")
        #expect(questions["minItems"] as? Int == 1 && questions["maxItems"] as? Int == WorkplaceLimits.questionsPerFormMax)
        #expect(try contract.property("ReviewQuestionOrder", "questionIds")["maxItems"] as? Int == WorkplaceLimits.questionsPerFormMax)
        #expect(try contract.property("NewReview", "answers")["maxItems"] as? Int == WorkplaceLimits.questionsPerFormMax)
    }

    /// Names, titles, employee numbers and questions are single-line texts; answers, remarks and
    /// news texts free texts: the same patterns (and so the same `TextKind` rule) as the other
    /// apps' names and messages.
    @Test func textPatternsAreTheTextPolicyOfEachField() throws {
        let singleLine = try contract.pattern("NewHouse", "name")
        let multiLine = try contract.pattern("NewReply", "message")
        for (schema, field) in [
            ("NewOrganisation", "name"), ("LocationName", "name"), ("OrganisationJoinRequest", "name"),
            ("OrganisationJoinRequest", "employeeNumber"), ("JoinRequestCorrection", "name"), ("JoinRequestCorrection", "employeeNumber"),
            ("NewReviewForm", "name"), ("ReviewFormName", "name"), ("NewReviewQuestion", "text"), ("NewNewsItem", "title"),
        ] {
            #expect(try contract.pattern(schema, field) == singleLine, "\(schema).\(field)")
        }
        for (schema, field) in [("ReviewAnswerInput", "text"), ("NewNewsItem", "text")] {
            #expect(try contract.pattern(schema, field) == multiLine, "\(schema).\(field)")
        }
        // The remark may be empty: the free-text pattern without its one required non-blank.
        let remark = try NSRegularExpression(pattern: try contract.pattern("NewReview", "remark"))
        for value in [0x0, 0x9, 0xA, 0xD, 0x20, 0x41, 0xAD, 0x200B, 0x200D, 0x202E, 0x2028, 0x1F600, 0xE0001] {
            let scalar = try #require(Unicode.Scalar(value))
            #expect(ContractRulesTests.matches(remark, "a\(Character(scalar))b") == TextKind.multiLine.allows(scalar), "U+\(String(value, radix: 16))")
        }
        #expect(ContractRulesTests.matches(remark, "") && ContractRulesTests.matches(remark, "  "))
    }

    @Test func questionKindsAreTheDomains() throws {
        let kinds = try #require(contract.schemas["ReviewQuestionKind"]?["enum"] as? [String])
        #expect(kinds == QuestionKind.allCases.map(\.rawValue))
        let sent = try NSRegularExpression(pattern: try contract.pattern("NewReviewQuestion", "kind"))
        for kind in QuestionKind.allCases { #expect(ContractRulesTests.matches(sent, kind.rawValue)) }
        for other in ["", "Rating", "yesno", "text "] { #expect(!ContractRulesTests.matches(sent, other), "\(other)") }
    }

    /// The directory is public; every other workplace operation needs a user's token.
    @Test func onlyTheDirectoryIsPublic() throws {
        var unguarded: [String] = []
        for (path, item) in contract.paths where path.hasPrefix("/v1/organisations") {
            for (method, operation) in item {
                guard let operation = operation as? [String: Any] else { continue }
                if operation["security"] == nil { unguarded.append("\(method) \(path)") }
            }
        }
        #expect(unguarded == ["get /v1/organisations"])
    }
}
