import Foundation
import Workplace

/// Adding, renaming and removing locations (one not in use by a member or a request).
extension WorkplaceLogGenerator {
    /// An admin adds a location, renames one, or removes one nobody is at (nil when none is free).
    mutating func changeLocation(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step? {
        let admin = o.admins[Int.random(in: 0..<o.admins.count, using: &random)]
        switch Int.random(in: 0..<10, using: &random) {
        case 0..<4:
            guard o.locations.count < Self.locationsPerOrganisationMax else { return nil }
            let location = WorkplaceCommand.NewLocation(locationId: "l\(o.index)-\(o.nextSerial())", name: "Site \(o.serial)")
            o.locations.append(location.locationId)
            return Step(command: .addLocation(organisationId: o.organisationId, location: location), actor: admin, now: now)
        case 4..<8:
            let locationId = o.locations.randomElement(using: &random)!
            return Step(command: .renameLocation(organisationId: o.organisationId, locationId: locationId, name: "Site \(o.nextSerial())"),
                        actor: admin, now: now)
        default:
            guard o.locations.count > 1, let position = o.locations.firstIndex(where: { o.peopleAt[$0, default: 0] == 0 }) else { return nil }
            let locationId = o.locations.remove(at: position)
            o.news.removeAll { $0.locationId == locationId }
            return Step(command: .removeLocation(organisationId: o.organisationId, locationId: locationId), actor: admin, now: now)
        }
    }
}
