import EventSourcing
import Foundation
@testable import Neighbourhood

/// Ids, postcodes and common events shared by the neighbourhood tests. Ids look like the UUIDs
/// the API generates; the decider itself treats them as opaque strings.
enum Fixture {
    static let report = "0193c0de-0000-7000-8000-00000000010a"
    static let reply = "0193c0de-0000-7000-8000-00000000020a"
    static let ann = "0193c0de-0000-7000-8000-0000000000a1"
    static let bob = "0193c0de-0000-7000-8000-0000000000b2"
    static let cat = "0193c0de-0000-7000-8000-0000000000c3"
    /// Ann's and Bob's neighbourhood.
    static let canal = "1012AB"
    /// Cat's neighbourhood.
    static let harbour = "3011CD"
    /// Millisecond-exact, so it survives the JSON round trip unchanged.
    static let now = Date(timeIntervalSince1970: 1_790_000_000.25)

    /// The metadata of a command by `actor` at `now`.
    static func by(_ actor: String, at time: Date = now) -> CommandMetadata {
        CommandMetadata(actor: actor, now: time, commandID: UUID())
    }

    /// The neighbourhood each fixture user lives in.
    static func home(_ userId: String) -> String {
        userId == cat ? harbour : canal
    }

    static func post(
        _ reportId: String = report, in neighbourhood: String? = canal, title: String = "Bike stolen",
        description: String = "Outside number 12, last night.", category: String = "suspicious",
        latitude: Double = 52.3731, longitude: Double = 4.8922
    ) -> NeighbourhoodCommand {
        .postReport(.init(reportId: reportId, neighbourhood: neighbourhood, displayName: "Ann", title: title,
                          description: description, category: category, latitude: latitude, longitude: longitude))
    }

    static func posted(_ reportId: String = report, by userId: String = ann, in neighbourhood: String = canal) -> NeighbourhoodEvent {
        .reportPosted(.init(
            reportId: reportId, neighbourhood: neighbourhood, authorId: userId, authorDisplayName: displayName(userId),
            title: "Bike stolen", description: "Outside number 12, last night.", category: .suspicious,
            latitude: 52.3731, longitude: 4.8922, postedAt: now))
    }

    static func followed(_ userId: String, _ reportId: String = report, in neighbourhood: String = canal) -> NeighbourhoodEvent {
        .reportFollowed(.init(reportId: reportId, neighbourhood: neighbourhood, userId: userId))
    }

    static func unfollowed(_ userId: String, _ reportId: String = report) -> NeighbourhoodEvent {
        .reportUnfollowed(.init(reportId: reportId, neighbourhood: canal, userId: userId))
    }

    static func replied(_ replyId: String = reply, by userId: String = bob, message: String = "I saw it too") -> NeighbourhoodEvent {
        .replyPosted(.init(reportId: report, neighbourhood: canal, replyId: replyId, authorId: userId,
                           authorDisplayName: displayName(userId), message: message, postedAt: now))
    }

    static func deleted(_ reportId: String = report) -> NeighbourhoodEvent {
        .reportDeleted(.init(reportId: reportId, neighbourhood: canal, authorId: ann))
    }

    /// Ann posted the report in the canal neighbourhood and follows it, as posting does.
    static let annsReport: [NeighbourhoodEvent] = [posted(), followed(ann)]

    static func displayName(_ userId: String) -> String {
        switch userId {
        case ann: "Ann"
        case bob: "Bob"
        case cat: "Cat"
        default: "Someone"
        }
    }
}
