import EventSourcing
import Foundation
@testable import Workplace

/// Ids, names and common events shared by the workplace tests. Ids look like the UUIDs the API
/// generates; the decider treats them as opaque strings.
///
/// The organisation `acme` ("Acme") has two locations, `hq` and `depot`. Ann registered it and
/// is its only admin, at `hq`; Bob is an accepted employee at `depot`; Cat has asked to join at
/// `hq` and waits; Dan is an outsider.
enum Fixture {
    static let acme = "0193c0de-0000-7000-8000-00000000000a"
    static let globex = "0193c0de-0000-7000-8000-00000000000b"
    static let hq = "0193c0de-0000-7000-8000-0000000000e1"
    static let depot = "0193c0de-0000-7000-8000-0000000000e2"
    static let shop = "0193c0de-0000-7000-8000-0000000000e3"
    static let ann = "0193c0de-0000-7000-8000-0000000000a1"
    static let bob = "0193c0de-0000-7000-8000-0000000000b2"
    static let cat = "0193c0de-0000-7000-8000-0000000000c3"
    static let dan = "0193c0de-0000-7000-8000-0000000000d4"
    static let yearly = "0193c0de-0000-7000-8000-0000000000f1"
    static let quarterly = "0193c0de-0000-7000-8000-0000000000f2"
    static let qRating = "0193c0de-0000-7000-8000-000000000101"
    static let qYes = "0193c0de-0000-7000-8000-000000000102"
    static let qText = "0193c0de-0000-7000-8000-000000000103"
    static let qNew = "0193c0de-0000-7000-8000-000000000104"
    static let review = "0193c0de-0000-7000-8000-000000000201"
    static let secondReview = "0193c0de-0000-7000-8000-000000000202"
    static let news = "0193c0de-0000-7000-8000-000000000301"
    static let unknown = "0193c0de-0000-7000-8000-000000000999"
    /// Millisecond-exact, so it survives the JSON round trip unchanged.
    static let now = Date(timeIntervalSince1970: 1_790_000_000.25)
    /// 100 KB of letters: over every text limit of the app.
    static let huge = String(repeating: "x", count: 100_000)

    /// The metadata of a command by `actor` at `now`.
    static func by(_ actor: String, at time: Date = now) -> CommandMetadata {
        CommandMetadata(actor: actor, now: time, commandID: UUID())
    }

    static func registered(_ organisationId: String = acme, name: String = "Acme", by userId: String = ann) -> WorkplaceEvent {
        .organisationRegistered(.init(
            organisationId: organisationId, name: name,
            locations: organisationId == acme ? [.init(locationId: hq, name: "HQ"), .init(locationId: depot, name: "Depot")]
                : [.init(locationId: unknown, name: "Main")],
            creatorId: userId, creatorName: "Ann Admin", registeredAt: now))
    }

    static func requested(_ userId: String, at locationId: String = hq, number: String? = nil) -> WorkplaceEvent {
        .joinRequested(.init(
            organisationId: acme, userId: userId, locationId: locationId, employeeNumber: number ?? "E-\(name(userId))",
            name: name(userId), requestedAt: now))
    }

    static func accepted(_ userId: String, at locationId: String = hq) -> WorkplaceEvent {
        .joinRequestAccepted(.init(
            organisationId: acme, userId: userId, locationId: locationId, employeeNumber: "E-\(name(userId))",
            name: name(userId), actorId: ann, acceptedAt: now))
    }

    static func rejected(_ userId: String) -> WorkplaceEvent {
        .joinRequestRejected(.init(organisationId: acme, userId: userId, actorId: ann))
    }

    static func changed(_ userId: String, at locationId: String, admin: Bool) -> WorkplaceEvent {
        .memberChanged(.init(organisationId: acme, userId: userId, locationId: locationId, admin: admin, actorId: ann))
    }

    static func removed(_ userId: String, by actorId: String = ann) -> WorkplaceEvent {
        .memberRemoved(.init(organisationId: acme, userId: userId, actorId: actorId))
    }

    /// The three questions of `yearly`, one of each kind.
    static let questions: [WorkplaceEvent.Question] = [
        .init(questionId: qRating, text: "How well do they work?", kind: .rating),
        .init(questionId: qYes, text: "Are they on time?", kind: .yesNo),
        .init(questionId: qText, text: "What went well?", kind: .text),
    ]

    static func formCreated(_ formId: String = yearly, name: String = "Yearly review",
                            questions: [WorkplaceEvent.Question] = questions) -> WorkplaceEvent {
        .formCreated(.init(organisationId: acme, formId: formId, name: name, questions: questions, actorId: ann))
    }

    static func newsPosted(_ newsId: String = news, at locationId: String = depot) -> WorkplaceEvent {
        .newsPosted(.init(
            organisationId: acme, newsId: newsId, locationId: locationId, title: "Canteen", text: "Open again.",
            imageBlobId: nil, authorId: ann, authorName: "Ann Admin", postedAt: now))
    }

    /// Acme as described above.
    static let organisation: [WorkplaceEvent] = [registered(), requested(bob, at: depot), accepted(bob, at: depot), requested(cat)]
    /// Acme with the `yearly` form.
    static let withForm: [WorkplaceEvent] = organisation + [formCreated()]

    /// Answers to every question of `yearly`, in the form's order.
    static func answers(rating: Int = 4, yes: Bool = true, text: String = "Helpful") -> [WorkplaceCommand.AnswerInput] {
        [.init(questionId: qRating, rating: rating), .init(questionId: qYes, yes: yes), .init(questionId: qText, text: text)]
    }

    static func submit(
        _ reviewId: String = review, of employeeId: String = bob, with formId: String = yearly,
        answers: [WorkplaceCommand.AnswerInput] = answers(), remark: String? = nil
    ) -> WorkplaceCommand {
        .submitReview(.init(organisationId: acme, reviewId: reviewId, employeeId: employeeId, formId: formId,
                            answers: answers, remark: remark))
    }

    static func name(_ userId: String) -> String {
        switch userId {
        case ann: "Ann Admin"
        case bob: "Bob"
        case cat: "Cat"
        case dan: "Dan"
        default: "Someone"
        }
    }
}

extension Result where Failure == WorkplaceError {
    /// The field names of a validation refusal, in the order they were checked; empty otherwise.
    var fields: [String] {
        failure?.fieldErrors.map(\.field) ?? []
    }
}
