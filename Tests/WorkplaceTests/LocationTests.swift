import EventSourcing
import Testing
@testable import Workplace

/// Locations: added, renamed and removed by admins; names unique per organisation.
@Suite("Workplace locations")
struct LocationTests {
    typealias D = WorkplaceDecider
    typealias F = Fixture

    func add(_ name: String, id: String = F.shop) -> WorkplaceCommand {
        .addLocation(organisationId: F.acme, location: .init(locationId: id, name: name))
    }

    func rename(_ locationId: String, to name: String) -> WorkplaceCommand {
        .renameLocation(organisationId: F.acme, locationId: locationId, name: name)
    }

    func remove(_ locationId: String) -> WorkplaceCommand {
        .removeLocation(organisationId: F.acme, locationId: locationId)
    }

    @Test func anAdminAddsALocation() throws {
        let events = try D.given(F.organisation).when(add(" Shop "), F.by(F.ann)).get()
        #expect(events == [.locationAdded(.init(organisationId: F.acme, location: .init(locationId: F.shop, name: "Shop"), actorId: F.ann))])
        #expect(D.fold(F.organisation + events).organisations[F.acme]?.locations[F.shop]?.name == "Shop")
    }

    @Test func addingRefusesATakenNameInAnyCaseAnInvalidNameAndAUsedId() {
        let taken = D.given(F.organisation).when(add(" dePOT"), F.by(F.ann)).failure
        #expect(taken == .locationNameTaken && taken?.code == "location_name_taken" && taken?.kind == .conflict)
        #expect(D.given(F.organisation).when(add(F.huge), F.by(F.ann)).fields == ["name"])
        #expect(D.given(F.organisation).when(add("", id: F.hq), F.by(F.ann)).fields == ["name"])
        #expect(D.given(F.organisation).when(add("Shop", id: F.hq), F.by(F.ann)).failure == .idTaken)
        // A removed location's id stays used.
        let removed = F.organisation + [.locationAdded(.init(organisationId: F.acme, location: .init(locationId: F.shop, name: "Shop"), actorId: F.ann)),
                                        .locationRemoved(.init(organisationId: F.acme, locationId: F.shop, actorId: F.ann))]
        #expect(D.given(removed).when(add("Shop"), F.by(F.ann)).failure == .idTaken)
    }

    @Test func addingStopsAtTheLimit() {
        var events = F.organisation
        for index in 2..<WorkplaceLimits.locationsPerOrganisationMax {
            events.append(.locationAdded(.init(organisationId: F.acme, location: .init(locationId: "l\(index)", name: "L\(index)"), actorId: F.ann)))
        }
        let failure = D.given(events).when(add("One more"), F.by(F.ann)).failure
        #expect(failure == .limitReached(.locations) && failure?.code == "limit_reached")
    }

    @Test func anAdminRenamesALocation() throws {
        let events = try D.given(F.organisation).when(rename(F.depot, to: "Warehouse"), F.by(F.ann)).get()
        #expect(events == [.locationRenamed(.init(organisationId: F.acme, location: .init(locationId: F.depot, name: "Warehouse"), actorId: F.ann))])
        #expect(D.fold(F.organisation + events).organisations[F.acme]?.locations[F.depot]?.name == "Warehouse")
    }

    @Test func renamingToItsOwnNameInAnotherCaseIsFineAndToTheSameNameChangesNothing() throws {
        #expect(try D.given(F.organisation).when(rename(F.depot, to: "DEPOT"), F.by(F.ann)).get().count == 1)
        #expect(try D.given(F.organisation).when(rename(F.depot, to: " Depot "), F.by(F.ann)).get().isEmpty)
    }

    @Test func renamingRefusesAnotherLocationsNameAnUnknownLocationAndAnInvalidName() {
        #expect(D.given(F.organisation).when(rename(F.depot, to: "hq"), F.by(F.ann)).failure == .locationNameTaken)
        let unknown = D.given(F.organisation).when(rename(F.shop, to: "Shop"), F.by(F.ann)).failure
        #expect(unknown == .locationNotFound && unknown?.code == "location_not_found" && unknown?.kind == .notFound)
        #expect(D.given(F.organisation).when(rename(F.depot, to: "a\tb"), F.by(F.ann)).fields == ["name"])
    }

    @Test func aLocationNobodyIsAtIsRemoved() throws {
        let events = F.organisation + [F.changed(F.bob, at: F.hq, admin: false)]
        let removed = try D.given(events).when(remove(F.depot), F.by(F.ann)).get()
        #expect(removed == [.locationRemoved(.init(organisationId: F.acme, locationId: F.depot, actorId: F.ann))])
        let state = D.fold(events + removed)
        #expect(state.organisations[F.acme]?.locations[F.depot] == nil)
        // Gone: naming it again is not-found.
        #expect(D.given(events + removed).when(rename(F.depot, to: "Back"), F.by(F.ann)).failure == .locationNotFound)
    }

    @Test func aLocationWithMembersOrPendingRequestsIsInUse() {
        // Bob works at the depot.
        let member = D.given(F.organisation).when(remove(F.depot), F.by(F.ann)).failure
        #expect(member == .locationInUse && member?.code == "location_in_use" && member?.kind == .conflict)
        // Only Cat's pending request is at the shop.
        let shop = F.organisation + [
            .locationAdded(.init(organisationId: F.acme, location: .init(locationId: F.shop, name: "Shop"), actorId: F.ann)),
            .joinRequested(.init(organisationId: F.acme, userId: F.dan, locationId: F.shop, employeeNumber: "7", name: "Dan", requestedAt: F.now)),
        ]
        #expect(D.given(shop).when(remove(F.shop), F.by(F.ann)).failure == .locationInUse)
        // Once the request is rejected, the shop is free.
        #expect(throws: Never.self) { try D.given(shop + [F.rejected(F.dan)]).when(remove(F.shop), F.by(F.ann)).get() }
    }

    @Test func theLastLocationStays() {
        let single = [WorkplaceEvent.organisationRegistered(.init(
            organisationId: F.acme, name: "Acme", locations: [.init(locationId: F.hq, name: "HQ")], creatorId: F.ann,
            creatorName: "Ann", registeredAt: F.now))]
        let failure = D.given(single).when(remove(F.hq), F.by(F.ann)).failure
        #expect(failure == .lastLocation && failure?.code == "last_location" && failure?.kind == .conflict)
    }
}
