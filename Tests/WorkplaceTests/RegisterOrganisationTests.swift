import EventSourcing
import Testing
@testable import Workplace

/// Registering an organisation: a valid name unique across the log, at least one location, and
/// the creator as its first accepted admin.
@Suite("Workplace registering")
struct RegisterOrganisationTests {
    typealias D = WorkplaceDecider

    func register(
        _ organisationId: String = Fixture.acme, name: String = "  Acme ",
        locations: [(String, String)] = [(Fixture.hq, " HQ "), (Fixture.depot, "Depot")], creatorName: String = "Ann Admin"
    ) -> WorkplaceCommand {
        .registerOrganisation(organisationId: organisationId, name: name,
                              locations: locations.map { .init(locationId: $0.0, name: $0.1) }, creatorName: creatorName)
    }

    @Test func theCreatorBecomesAnAcceptedAdminAtTheFirstLocation() throws {
        let events = try D.given([]).when(register(), Fixture.by(Fixture.ann)).get()
        #expect(events == [Fixture.registered()])
        let organisation = try #require(D.fold(events).organisations[Fixture.acme])
        #expect(organisation.name == "Acme" && organisation.locations.count == 2)
        let ann = try #require(organisation.members[Fixture.ann])
        #expect(ann.isAdmin && ann.locationId == Fixture.hq && ann.name == "Ann Admin" && ann.employeeNumber == nil)
        #expect(organisation.viewer(Fixture.ann).standing == .member(locationId: Fixture.hq, admin: true))
    }

    @Test func theBoundaryIsTheOrganisationAndForRegisteringAlsoItsName() {
        let registering = D.boundary(of: register(name: "ACME"))
        #expect(registering == Boundary([.init(tags: [WorkplaceEvent.organisationTag(Fixture.acme)]),
                                         .init(tags: [WorkplaceEvent.organisationNameTag("acme")])]))
        let renaming = D.boundary(of: .renameLocation(organisationId: Fixture.acme, locationId: Fixture.hq, name: "X"))
        #expect(renaming == .tag(WorkplaceEvent.organisationTag(Fixture.acme)))
        // What registering appends carries the tags its boundary asks about.
        #expect(Fixture.registered().tags.contains(WorkplaceEvent.organisationNameTag(" ACME")))
    }

    @Test func aNameTakenInAnotherCaseIsRefused() {
        let failure = D.given([Fixture.registered(Fixture.globex, name: "ACME")])
            .when(register(name: " acme "), Fixture.by(Fixture.bob)).failure
        #expect(failure == .organisationNameTaken && failure?.code == "organisation_name_taken" && failure?.kind == .conflict)
        // Another name under the same boundary (a hash collision, in theory) is no clash.
        #expect(throws: Never.self) {
            try D.given([Fixture.registered(Fixture.globex, name: "Globex")]).when(register(), Fixture.by(Fixture.bob)).get()
        }
    }

    @Test func anIdInUseIsRefused() {
        let failure = D.given([Fixture.registered()]).when(register(name: "Other"), Fixture.by(Fixture.bob)).failure
        #expect(failure == .idTaken && failure?.code == "id_taken" && failure?.kind == .conflict)
        let twice = D.given([]).when(register(locations: [(Fixture.hq, "A"), (Fixture.hq, "B")]), Fixture.by(Fixture.ann))
        #expect(twice.failure == .idTaken)
    }

    @Test func everyFieldProblemIsReportedAtOnce() {
        let result = D.given([]).when(
            register(name: "   ", locations: [(Fixture.hq, "HQ"), (Fixture.depot, " hq"), (Fixture.shop, "")],
                     creatorName: Fixture.huge),
            Fixture.by(Fixture.ann))
        #expect(result.failure?.code == "validation_failed" && result.failure?.kind == .validation)
        #expect(result.fields == ["name", "locations[2].name", "locations[1].name", "creatorName"])
        #expect(result.failure?.fieldErrors.first { $0.field == "locations[1].name" }?.message == "repeats the name of locations[0].name")
    }

    @Test func atLeastOneLocation() {
        #expect(D.given([]).when(register(locations: []), Fixture.by(Fixture.ann)).fields == ["locations"])
    }

    @Test func namesAreBoundedAndPlain() {
        for bad in [String(repeating: "a", count: 101), Fixture.huge, "Evil\u{202E}Corp", "Two\nlines", "Nul\u{0}"] {
            #expect(D.given([]).when(register(name: bad), Fixture.by(Fixture.ann)).fields == ["name"])
            #expect(D.given([]).when(register(locations: [(Fixture.hq, bad)]), Fixture.by(Fixture.ann)).fields == ["locations[0].name"])
        }
        #expect(throws: Never.self) {
            try D.given([]).when(register(name: String(repeating: "a", count: 100)), Fixture.by(Fixture.ann)).get()
        }
    }
}
