import EventSourcing
import Foundation
import Testing
import Workplace
@testable import Projections

/// `WorkplaceProjectionInput`, the workplace as its read models decode it: a review as its ids,
/// every other event exactly as `WorkplaceEvent` decodes it.
@Suite("Workplace read models: events as decoded for them")
struct WorkplaceProjectionInputTests {
    private typealias H = WorkplaceHistory

    private func input(_ event: WorkplaceEvent) throws -> WorkplaceProjectionInput? {
        try WorkplaceProjectionInput.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: event.encodeData())
    }

    @Test func aReviewIsItsIdsAndEveryOtherEventIsWhole() throws {
        guard case .reviewSubmitted(let ids)? = try input(H.review("org-1", "rev-1", of: "bob")) else {
            Issue.record("a review is decoded as its ids")
            return
        }
        #expect([ids.organisationId, ids.reviewId, ids.employeeId] == ["org-1", "rev-1", "bob"])
        let others = [H.register("org-1", "Acme"), H.request("org-1", "cara", name: "Cara", number: "7"), H.news("org-1", "news-1")]
            + H.join("org-1", "bob", name: "Bob", number: "B-1")
        for event in others {
            #expect(try input(event) == .event(event), "\(event.typeName)")
        }
    }

    /// A review's ids are read from a scan that keeps no nodes for the answers
    /// (`readsNestedContainers` false): on random reviews and every one-change mutation of them
    /// (an answer nulled, of another type, a member removed) they read as Foundation reads them,
    /// and what Foundation refuses is refused.
    @Test func aReviewsIdsReadFromItsTopLevelAgreeWithFoundation() throws {
        var random = SystemRandomNumberGenerator()
        guard case .reviewSubmitted(let review) = H.review("org-1", "rev-1", of: "bob", remark: "Well done") else {
            Issue.record("the history's review is a review")
            return
        }
        let problems = try NodeDecodingAgreement.disagreements(reading: WorkplaceProjectionInput.ReviewIds.self, from: review, rounds: 20, using: &random)
        #expect(problems.isEmpty, "\(problems.prefix(3))")
        #expect(WorkplaceProjectionInput.ReviewIds.readsNestedContainers == false)
    }

    @Test func anotherDomainsEventIsNoneAndAReviewWithoutItsIdsIsRefused() throws {
        #expect(try WorkplaceProjectionInput.decode(typeName: "household.taskCompleted", schemaVersion: 1, data: Data("{}".utf8)) == nil)
        var review = try #require(try JSONSerialization.jsonObject(with: H.review("org-1", "rev-1", of: "bob").encodeData()) as? [String: Any])
        review["employeeId"] = nil
        let withoutEmployee = try JSONSerialization.data(withJSONObject: review)
        #expect(throws: (any Error).self) {
            try WorkplaceProjectionInput.decode(typeName: WorkplaceEvent.ReviewSubmitted.typeName, schemaVersion: 1, data: withoutEmployee)
        }
        review["employeeId"] = 42
        let wrongType = try JSONSerialization.data(withJSONObject: review)
        #expect(throws: (any Error).self) {
            try WorkplaceProjectionInput.decode(typeName: WorkplaceEvent.ReviewSubmitted.typeName, schemaVersion: 1, data: wrongType)
        }
    }
}
