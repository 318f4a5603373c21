import EventSourcing
import Foundation
import Testing
@testable import Neighbourhood

/// The storage format: every event survives the JSON round trip, and names, streams and tags
/// follow the project's conventions.
@Suite("Neighbourhood event JSON")
struct NeighbourhoodEventJSONTests {
    /// One event of every type.
    static let everyEvent: [NeighbourhoodEvent] = [
        Fixture.posted(), Fixture.deleted(), Fixture.replied(), Fixture.followed(Fixture.bob), Fixture.unfollowed(Fixture.bob),
    ]

    @Test func theSampleCoversEveryType() {
        #expect(Set(Self.everyEvent.map(\.typeName)) == Set(NeighbourhoodEvent.typeNames))
    }

    @Test(arguments: everyEvent)
    func roundTrips(event: NeighbourhoodEvent) throws {
        let data = try event.encodeData()
        // Through the fast decoder alone: a payload that fell back to Foundation would be slow.
        let decoded = try EventJSON.$fastPathOnly.withValue(true) {
            try NeighbourhoodEvent.decode(typeName: event.typeName, schemaVersion: event.schemaVersion, data: data)
        }
        #expect(decoded == event)
        #expect(event.schemaVersion == 1)
    }

    @Test(arguments: everyEvent)
    func namesStreamsAndTagsFollowTheConventions(event: NeighbourhoodEvent) {
        #expect(event.typeName == "neighbourhood." + String(describing: event).prefix { $0 != "(" })
        #expect(event.streamID == "report-\(Fixture.report)")
        let actor = (event.eventPayload as! any NeighbourhoodPayload).actorId
        #expect(event.tags == ["report:\(Fixture.report)", "neighbourhood:\(Fixture.canal)", "user:\(actor)"])
    }

    @Test func everyCommandIsDecidedOnItsReportAlone() {
        let commands: [NeighbourhoodCommand] = [
            Fixture.post(), .deleteReport(reportId: Fixture.report, neighbourhood: nil),
            .postReply(reportId: Fixture.report, replyId: Fixture.reply, message: "m", displayName: "Bob", neighbourhood: Fixture.canal),
            .followReport(reportId: Fixture.report, neighbourhood: Fixture.canal),
            .unfollowReport(reportId: Fixture.report, neighbourhood: Fixture.canal),
        ]
        for command in commands {
            #expect(NeighbourhoodDecider.boundary(of: command) == .tag("report:\(Fixture.report)"))
        }
    }

    @Test func unknownTypesDecodeToNil() throws {
        let data = try Fixture.posted().encodeData()
        #expect(try NeighbourhoodEvent.decode(typeName: "household.houseCreated", schemaVersion: 1, data: data) == nil)
        #expect(try NeighbourhoodEvent.decode(typeName: "neighbourhood.reportEdited", schemaVersion: 1, data: data) == nil)
    }

    @Test func malformedDataOfAKnownTypeThrows() {
        #expect(throws: (any Error).self) {
            try NeighbourhoodEvent.decode(typeName: "neighbourhood.replyPosted", schemaVersion: 1, data: Data("{}".utf8))
        }
    }

    /// Reports, replies and follows are read straight from the JSON nodes (`NodeDecodable`): the
    /// same values as the Codable path for random variants and every one-change mutation.
    @Test func reportsRepliesAndFollowsReadFromTheNodesAgreeWithTheCodablePath() throws {
        var random = SystemRandomNumberGenerator()
        var problems: [String] = []
        for event in Self.everyEvent {
            switch event {
            case .reportPosted(let p): problems += try NodeDecodingAgreement.disagreements(p, rounds: 60, using: &random)
            case .replyPosted(let p): problems += try NodeDecodingAgreement.disagreements(p, rounds: 60, using: &random)
            case .reportFollowed(let p): problems += try NodeDecodingAgreement.disagreements(p, rounds: 60, using: &random)
            case .reportUnfollowed(let p): problems += try NodeDecodingAgreement.disagreements(p, rounds: 60, using: &random)
            case .reportDeleted: break  // rare: decoded through `init(from:)`
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(3))")
    }

    @Test func reportPostedIsStoredAsReadModelsExpect() throws {
        let json = String(decoding: try Fixture.posted().encodeData(), as: UTF8.self)
        #expect(json == #"{"authorDisplayName":"Ann","authorId":"\#(Fixture.ann)","category":"suspicious","#
            + #""description":"Outside number 12, last night.","latitude":52.3731,"longitude":4.8922,"#
            + #""neighbourhood":"1012AB","postedAt":"2026-09-21T14:13:20.250Z","reportId":"\#(Fixture.report)","#
            + #""title":"Bike stolen"}"#)
    }

    @Test func codesAndKindsAreStable() {
        let expected: [(NeighbourhoodError, String, DomainErrorKind)] = [
            (.validationFailed([FieldError("title", "x")]), "validation_failed", .validation),
            (.noNeighbourhood, "no_neighbourhood", .conflict),
            (.reportNotFound, "report_not_found", .notFound),
            (.notTheAuthor, "not_the_author", .forbidden),
            (.idTaken, "id_taken", .conflict),
            (.limitReached(.replies), "limit_reached", .conflict),
        ]
        for (error, code, kind) in expected {
            #expect(error.code == code && error.kind == kind && !error.detail.isEmpty)
            #expect(error.fieldErrors.isEmpty == (code != "validation_failed"))
        }
    }
}
