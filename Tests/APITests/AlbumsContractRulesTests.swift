import Albums
import Blobs
import EventSourcing
import Foundation
import Testing
@testable import API

/// openapi.yaml states the albums decider's rules: its lengths and counts are `AlbumsLimits`,
/// its text patterns are the ones `ContractRulesTests` pins to `TextKind`, and an image id is
/// what `BlobLimits.isBlobId` accepts. A rule changed on one side fails here.
@Suite("The contract states the albums' rules", .timeLimit(.minutes(3)))
struct AlbumsContractRulesTests {
    let contract: ContractDocument

    init() throws {
        contract = try ContractDocument()
    }

    /// Each length the contract states is the decider's, and every field the decider bounds
    /// is bounded in the contract.
    @Test func lengthsAndCountsAreTheAlbumsLimits() throws {
        #expect(try contract.lengths("NewGroup", "name") == AlbumsLimits.groupNameCharacters)
        #expect(try contract.lengths("NewPhoto", "description") == AlbumsLimits.photoDescriptionCharacters)
        #expect(try contract.lengths("NewMessage", "text") == AlbumsLimits.messageCharacters)
        #expect(try contract.lengths("NewInvitation", "email") == AlbumsLimits.emailCharacters)
        #expect(try contract.property("Group", "members")["maxItems"] as? Int == AlbumsLimits.membersPerGroupMax)
    }

    /// A group's name is a single-line text; a photo's description and a chat message free
    /// texts: the same patterns (and so the same `TextKind` rule) as the other apps'.
    @Test func textPatternsAreTheTextPolicyOfEachField() throws {
        #expect(try contract.pattern("NewGroup", "name") == (try contract.pattern("NewHouse", "name")))
        let multiLine = try contract.pattern("NewReply", "message")
        #expect(try contract.pattern("NewPhoto", "description") == multiLine)
        #expect(try contract.pattern("NewMessage", "text") == multiLine)
    }

    /// Where a client sends or is sent an image id, the contract accepts exactly the ids the
    /// domain does: 64 lowercase hex digits.
    @Test func imageIdsAreBlobIds() throws {
        let valid = String(repeating: "0123456789abcdef", count: 4)
        let samples = [
            valid, String(valid.dropLast()), valid + "0", valid.uppercased(), String(valid.dropLast()) + "g", "",
            String(repeating: "a", count: 64), String(valid.dropLast()) + "\n",
        ]
        for (schema, field) in [("NewPhoto", "blobId"), ("Photo", "blobId")] {
            #expect(try contract.lengths(schema, field) == 64...64, "\(schema).\(field)")
            let stated = try NSRegularExpression(pattern: try contract.pattern(schema, field))
            for sample in samples {
                let fits = ContractRulesTests.matches(stated, sample) && (64...64).contains(sample.count)
                #expect(fits == BlobLimits.isBlobId(sample), "\(schema).\(field): \(sample.debugDescription)")
            }
        }
    }

    /// Every albums operation needs a user's token: a group is its members' only.
    @Test func everyGroupOperationNeedsAToken() throws {
        var operations = 0
        var unguarded: [String] = []
        for (path, item) in contract.paths where path.hasPrefix("/v1/groups") {
            for (method, operation) in item {
                guard let operation = operation as? [String: Any], operation["operationId"] != nil else { continue }
                operations += 1
                if operation["security"] == nil { unguarded.append("\(method) \(path)") }
            }
        }
        #expect(operations >= 10, "the albums operations are in the contract")
        #expect(unguarded.isEmpty)
    }
}
