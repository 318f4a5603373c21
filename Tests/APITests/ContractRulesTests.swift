import Accounts
import API
import EventSourcing
import Foundation
import Household
import Neighbourhood
import Quiz
import Testing

/// openapi.yaml states the rules the server enforces, so that a client (or a fuzzer) sending
/// schema-valid data is not refused. These tests pin the contract's numbers and patterns to the
/// constants and the text policy the deciders use: a rule changed on one side fails here.
@Suite("The contract states the server's rules", .timeLimit(.minutes(3)))
struct ContractRulesTests {
    let contract: ContractDocument

    init() throws {
        contract = try ContractDocument()
    }

    func pattern(_ schema: String, _ name: String) throws -> NSRegularExpression {
        try NSRegularExpression(pattern: try contract.pattern(schema, name))
    }

    @Test func lengthsAreTheDecidersLimits() throws {
        #expect(try contract.lengths("AccountRegistration", "displayName") == AccountRules.displayNameLengthRange)
        #expect(try contract.lengths("AccountRegistration", "firstName") == 0...AccountRules.personNameLengthMax)
        #expect(try contract.lengths("AccountRegistration", "username") == AccountRules.usernameLengthRange)
        #expect(try contract.lengths("AccountRegistration", "password") == PasswordPolicy.lengthMin...PasswordPolicy.lengthMax)
        #expect(try contract.lengths("PasswordChange", "newPassword") == PasswordPolicy.lengthMin...PasswordPolicy.lengthMax)
        #expect(try contract.lengths("PasswordResetRedemption", "newPassword") == PasswordPolicy.lengthMin...PasswordPolicy.lengthMax)
        #expect(try contract.property("AccountRegistration", "email")["maxLength"] as? Int == AccountRules.emailBytesMax)
        #expect(try contract.property("AccountRegistration", "email")["format"] as? String == "email")
        for schema in ["NewHouse", "RoomName", "NewTask"] {
            #expect(try contract.lengths(schema, "name") == HouseholdLimits.nameCharacters, "\(schema)")
        }
        #expect(try contract.property("NewTask", "frequencyDays")["minimum"] as? Int == HouseholdLimits.frequencyDays.lowerBound)
        #expect(try contract.property("NewTask", "frequencyDays")["maximum"] as? Int == HouseholdLimits.frequencyDays.upperBound)
        #expect(try contract.property("NewTask", "points")["maximum"] as? Int == HouseholdLimits.points.upperBound)
        #expect(try contract.lengths("JoinRequest", "joinCode") == HouseholdLimits.joinCodeCharactersMin...HouseholdLimits.joinCodeCharactersMax)
        #expect(try contract.lengths("NewReport", "title") == NeighbourhoodLimits.titleCharacters)
        #expect(try contract.lengths("NewReport", "description") == NeighbourhoodLimits.descriptionCharacters)
        #expect(try contract.lengths("NewReply", "message") == NeighbourhoodLimits.replyCharacters)
        #expect(try contract.lengths("NewQuestion", "text") == QuizLimits.questionTextCharacters)
        #expect(try contract.lengths("NewQuestion", "category") == 0...QuizLimits.categoryCharacters.upperBound)
        let answers = try contract.property("NewQuestion", "answers")
        #expect(answers["minItems"] as? Int == QuizLimits.answersPerQuestion.lowerBound)
        #expect(answers["maxItems"] as? Int == QuizLimits.answersPerQuestion.upperBound)
        #expect(try contract.property("GameAnswer", "index")["maximum"] as? Int == QuizLimits.questionsPerGame - 1)
    }

    /// The name patterns accept a character exactly when `TextKind` does, for every Unicode scalar:
    /// the contract's regular expression and the deciders' policy are one rule.
    @Test func textPatternsAreTheTextPolicy() throws {
        let singleLine = try pattern("AccountRegistration", "firstName")
        let multiLineNonBlank = try pattern("NewReply", "message")
        let singleLineNonBlank = try pattern("NewHouse", "name")
        var disagreements: [String] = []
        for value in 0...0x10FFFF {
            guard let scalar = Unicode.Scalar(value) else { continue }
            let text = "a\(Character(scalar))b"
            if Self.matches(singleLine, text) != TextKind.singleLine.allows(scalar) {
                disagreements.append("single-line U+\(String(value, radix: 16))")
            }
            if Self.matches(multiLineNonBlank, text) != TextKind.multiLine.allows(scalar) {
                disagreements.append("multi-line U+\(String(value, radix: 16))")
            }
            // Alone, the character is a valid name only if the policy allows it and trimming keeps it.
            let alone = String(Character(scalar))
            let kept = !alone.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty
            if Self.matches(singleLineNonBlank, alone) != (TextKind.singleLine.allows(scalar) && kept) {
                disagreements.append("non-blank U+\(String(value, radix: 16))")
            }
            if disagreements.count > 20 { break }
        }
        #expect(disagreements.isEmpty, "\(disagreements)")
    }

    @Test func usernameAndPostcodePatternsAreTheAccountRules() throws {
        let username = try pattern("AccountRegistration", "username")
        for sample in ["ann", "ann.b_c-d", String(repeating: "x", count: 30), "an", "ann b", "änn", String(repeating: "x", count: 31), "ann!"] {
            #expect(Self.matches(username, sample) == (AccountRules.usernameProblem(sample) == nil), "username \(sample)")
        }
        let postcode = try pattern("AccountRegistration", "postcode")
        for sample in ["1234AB", "1234 ab", "SW1A 1AA", "", "A", "12345678901", "12-34", "ÄB12"] {
            let normalised = AccountRules.normalisePostcode(sample)
            let accepted = normalised.isEmpty || AccountRules.postcodeProblem(normalised) == nil
            // The pattern may be stricter than the rule (spaces only between characters), never looser.
            if Self.matches(postcode, sample) { #expect(accepted, "postcode \(sample)") }
        }
        #expect(Self.matches(postcode, "1234 AB") && Self.matches(postcode, "") && !Self.matches(postcode, "A"))
    }

    /// Every JSON read of the apps declares its conditional form (SPEC §1): the If-None-Match
    /// input, the ETag of its 200 and the 304, so that a client generated from the contract has
    /// them as inputs and cases, not only as prose.
    @Test func everyJSONReadDeclaresIfNoneMatchETagAnd304() throws {
        var reads = 0
        for (path, item) in contract.paths where path.hasPrefix("/v1/") {
            guard let get = item["get"] as? [String: Any], let responses = get["responses"] as? [String: Any],
                  let ok = responses["200"] as? [String: Any], let content = ok["content"] as? [String: Any],
                  !Set(content.keys).isDisjoint(with: ["application/json", "application/geo+json"]) else { continue }
            reads += 1
            let parameters = get["parameters"] as? [[String: Any]] ?? []
            #expect(parameters.contains { $0["$ref"] as? String == "#/components/parameters/IfNoneMatch" }, "\(path)")
            let eTag = ((ok["headers"] as? [String: Any])?["ETag"] as? [String: Any])?["$ref"] as? String
            #expect(["#/components/headers/ETag", "#/components/headers/ReadModelETag"].contains(eTag), "\(path)")
            #expect((responses["304"] as? [String: Any])?["$ref"] as? String == "#/components/responses/NotModified", "\(path)")
        }
        #expect(reads >= 40, "the apps' and operators' reads")
        let notModified = try #require(contract.components["responses"]?["NotModified"] as? [String: Any])
        #expect(notModified["content"] == nil, "a 304 has no body")
        #expect(((notModified["headers"] as? [String: Any])?["ETag"] as? [String: Any])?["required"] as? Bool == true)
    }

    static func matches(_ regex: NSRegularExpression, _ text: String) -> Bool {
        regex.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)) != nil
    }
}
