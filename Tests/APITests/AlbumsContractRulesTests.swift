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
    let schemas: [String: [String: Any]]
    let paths: [String: [String: Any]]

    init() throws {
        let document = try #require(try JSONSerialization.jsonObject(with: OpenAPIDocument.data()) as? [String: Any])
        schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: [String: Any]])
        paths = try #require(document["paths"] as? [String: [String: Any]])
    }

    func property(_ schema: String, _ name: String) throws -> [String: Any] {
        let properties = try #require(schemas[schema]?["properties"] as? [String: Any], "schema \(schema)")
        return try #require(properties[name] as? [String: Any], "\(schema).\(name)")
    }

    func lengths(_ schema: String, _ name: String) throws -> ClosedRange<Int> {
        let field = try property(schema, name)
        let minimum = try #require(field["minLength"] as? Int, "\(schema).\(name) minLength")
        return minimum...(try #require(field["maxLength"] as? Int, "\(schema).\(name) maxLength"))
    }

    func pattern(_ schema: String, _ name: String) throws -> String {
        try #require(try property(schema, name)["pattern"] as? String, "\(schema).\(name) pattern")
    }

    /// Each length the contract states is the decider's, and every field the decider bounds
    /// is bounded in the contract.
    @Test func lengthsAndCountsAreTheAlbumsLimits() throws {
        #expect(try lengths("NewGroup", "name") == AlbumsLimits.groupNameCharacters)
        #expect(try lengths("NewPhoto", "description") == AlbumsLimits.photoDescriptionCharacters)
        #expect(try lengths("NewMessage", "text") == AlbumsLimits.messageCharacters)
        #expect(try lengths("NewInvitation", "email") == AlbumsLimits.emailCharacters)
        #expect(try property("Group", "members")["maxItems"] as? Int == AlbumsLimits.membersPerGroupMax)
    }

    /// A group's name is a single-line text; a photo's description and a chat message free
    /// texts: the same patterns (and so the same `TextKind` rule) as the other apps'.
    @Test func textPatternsAreTheTextPolicyOfEachField() throws {
        #expect(try pattern("NewGroup", "name") == (try pattern("NewHouse", "name")))
        let multiLine = try pattern("NewReply", "message")
        #expect(try pattern("NewPhoto", "description") == multiLine)
        #expect(try pattern("NewMessage", "text") == multiLine)
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
            #expect(try lengths(schema, field) == 64...64, "\(schema).\(field)")
            let stated = try NSRegularExpression(pattern: try pattern(schema, field))
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
        for (path, item) in paths where path.hasPrefix("/v1/groups") {
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
