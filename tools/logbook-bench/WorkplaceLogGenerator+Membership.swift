import Foundation
import Workplace

/// Join requests and their answers, and admins changing or removing members.
extension WorkplaceLogGenerator {
    /// Someone asks to join at one of the locations, now and then someone rejected before; nil
    /// once the organisation is as big as it grows.
    mutating func requestToJoin(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step? {
        guard o.members.count + o.pending.count < Self.peoplePerOrganisationMax else { return nil }
        let again = !o.rejected.isEmpty && Int.random(in: 0..<10, using: &random) < 4
        let userId = again ? o.rejected.removeLast() : o.newUser()
        let number = Int(userId.split(separator: "-").last!)!
        let request = WorkplaceLogOrganisation.Pending(
            userId: userId, locationId: o.locations.randomElement(using: &random)!,
            employeeNumber: "E-\(100_000 + o.index * 1_000 + number)", name: Self.personName(o.index * 1_000 + number))
        o.pending.append(request)
        o.peopleAt[request.locationId, default: 0] += 1
        return Step(
            command: .requestToJoin(organisationId: o.organisationId, locationId: request.locationId,
                                    employeeNumber: request.employeeNumber, name: request.name),
            actor: userId, now: now)
    }

    /// An admin answers the oldest request: mostly accepted, some corrected on the way, an eighth
    /// rejected.
    mutating func answerRequest(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step? {
        guard !o.pending.isEmpty else { return nil }
        let request = o.pending.removeFirst()
        o.peopleAt[request.locationId, default: 0] -= 1
        let admin = o.admins[Int.random(in: 0..<o.admins.count, using: &random)]
        let roll = Int.random(in: 0..<100, using: &random)
        if roll < 12 {
            o.rejected.append(request.userId)
            return Step(command: .rejectJoinRequest(organisationId: o.organisationId, userId: request.userId), actor: admin, now: now)
        }
        // Some requests are corrected on accepting: a misspelt name, a wrong number, the wrong site.
        var correction = WorkplaceCommand.JoinCorrection()
        if roll < 20 { correction.name = request.name + "-Smit" }
        if (20..<25).contains(roll) { correction.employeeNumber = request.employeeNumber + "0" }
        if (25..<30).contains(roll), let other = o.locations.first(where: { $0 != request.locationId }) { correction.locationId = other }
        o.addMember(.init(userId: request.userId, locationId: correction.locationId ?? request.locationId, admin: false))
        return Step(
            command: .acceptJoinRequest(organisationId: o.organisationId, userId: request.userId, correction: correction),
            actor: admin, now: now)
    }

    /// An admin moves a member, makes one an admin or takes the flag back; or a member leaves or
    /// is removed. Nil when the pick does not apply (nothing would change).
    mutating func changeMember(_ o: inout WorkplaceLogOrganisation, now: Date) -> Step? {
        // Never the creator (position 0): the organisation keeps an admin and a reviewer.
        guard o.members.count >= 3 else { return nil }
        let position = Int.random(in: 1..<o.members.count, using: &random)
        let member = o.members[position]
        // An admin changes someone else; the creator, always an admin, when the pick is the member.
        let picked = o.admins[Int.random(in: 0..<o.admins.count, using: &random)]
        let admin = picked == member.userId ? o.admins[0] : picked
        let command: WorkplaceCommand
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<10:
            guard let other = o.locations.filter({ $0 != member.locationId }).randomElement(using: &random) else { return nil }
            o.move(member: position, to: other)
            command = .changeMember(organisationId: o.organisationId, userId: member.userId, locationId: other, admin: nil)
        case 10..<14:
            guard !member.admin, o.admins.count < Self.adminsPerOrganisationMax else { return nil }
            o.setAdmin(member: position, true)
            command = .changeMember(organisationId: o.organisationId, userId: member.userId, locationId: nil, admin: true)
        case 14..<17:
            guard member.admin else { return nil }
            o.setAdmin(member: position, false)
            command = .changeMember(organisationId: o.organisationId, userId: member.userId, locationId: nil, admin: false)
        default:
            guard !member.admin else { return nil }
            o.removeMember(at: position)
            // Half leave on their own, half are removed by an admin.
            let actor = Bool.random(using: &random) ? member.userId : admin
            return Step(command: .removeMember(organisationId: o.organisationId, userId: member.userId), actor: actor, now: now)
        }
        return Step(command: command, actor: admin, now: now)
    }
}
