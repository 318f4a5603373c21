import EventSourcing
import Foundation
import Workplace

/// The steps of a workplace bench log, deterministic for a given size: first every organisation
/// registers (one per `WorkplaceLog.eventsPerOrganisation` events, two to four locations each),
/// then each step picks an organisation at random and one of its users does something, about as
/// often as in real use: reviews (60%), news (20%), join requests and their answers (15%, an
/// eighth rejected, some of those asking again), news deleted, form edits (create, rename,
/// add/remove/reorder questions, delete), member changes and location changes. A step whose
/// precondition does not hold (no form yet, too few members) does what the organisation needs
/// first instead, so every step is a command the decider accepts.
struct WorkplaceLogGenerator: IteratorProtocol {
    /// One command, who sent it and when.
    struct Step {
        var command: WorkplaceCommand
        var actor: String
        var now: Date
    }

    // The log's own bounds, well inside `WorkplaceLimits`: organisations the size of a small firm.
    /// Members and pending requests an organisation grows to; then it only works.
    static let peoplePerOrganisationMax = 400
    static let locationsPerOrganisationMax = 8
    static let formsPerOrganisationMax = 6
    static let questionsPerFormMax = 10
    static let questionsPerFormMin = 3
    static let adminsPerOrganisationMax = 4

    let events: Int
    private(set) var organisations: [WorkplaceLogOrganisation] = []
    var random = SplitMix64(seed: 0x5EED_C0C0)
    private var produced = 0
    private let start = Date(timeIntervalSince1970: 1_800_000_000)
    private let organisationCount: Int

    init(events: Int) {
        self.events = events
        organisationCount = max(1, events / WorkplaceLog.eventsPerOrganisation)
    }

    mutating func next() -> Step? {
        guard produced < events else { return nil }
        // Whole seconds, so that the RFC 3339 dates of the JSON give the same `Date` back.
        let now = start.addingTimeInterval(Double(produced * 30))
        defer { produced += 1 }
        if organisations.count < organisationCount { return register(now: now) }
        let index = Int.random(in: 0..<organisations.count, using: &random)
        var organisation = organisations[index]
        // Emptied while it is modelled, so the one copy is mutated in place.
        organisations[index] = WorkplaceLogOrganisation(index: -1, organisationId: "", locations: [])
        defer { organisations[index] = organisation }
        let roll = Int.random(in: 0..<1_000, using: &random)
        let step: Step? = switch roll {
        case 0..<600: review(&organisation, now: now)
        case 600..<800: postNews(&organisation, now: now)
        case 800..<875: requestToJoin(&organisation, now: now)
        case 875..<950: answerRequest(&organisation, now: now)
        case 950..<965: deleteNews(&organisation, now: now)
        case 965..<985: editForm(&organisation, now: now)
        case 985..<995: changeMember(&organisation, now: now)
        default: changeLocation(&organisation, now: now)
        }
        return step ?? bootstrap(&organisation, now: now)
    }

    /// The next organisation registers, with two to four locations; its creator is its admin.
    mutating func register(now: Date) -> Step {
        let index = organisations.count
        let organisationId = "o\(index)"
        let locations = (0..<Int.random(in: 2...4, using: &random)).map {
            WorkplaceCommand.NewLocation(locationId: "l\(index)-\($0)", name: Self.cities[(index + $0 * 7) % Self.cities.count])
        }
        let name = "\(Self.companyWords[index % Self.companyWords.count]) \(Self.companyKinds[index / Self.companyWords.count % Self.companyKinds.count]) \(index)"
        let creator = "u\(index)-0"
        let creatorName = Self.personName(index)
        var organisation = WorkplaceLogOrganisation(index: index, organisationId: organisationId, locations: locations.map(\.locationId))
        organisation.serial = locations.count
        organisation.addMember(.init(userId: creator, locationId: locations[0].locationId, admin: true))
        organisations.append(organisation)
        return Step(
            command: .registerOrganisation(organisationId: organisationId, name: name, locations: locations, creatorName: creatorName),
            actor: creator, now: now)
    }

    /// What a young organisation needs before it can review: a form, then members.
    mutating func bootstrap(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step {
        if o.forms.isEmpty, let step = createForm(&o, now: now) { return step }
        if !o.pending.isEmpty, let step = answerRequest(&o, now: now) { return step }
        if o.members.count < 2, let step = requestToJoin(&o, now: now) { return step }
        return review(&o, now: now) ?? postNews(&o, now: now)
    }
}
