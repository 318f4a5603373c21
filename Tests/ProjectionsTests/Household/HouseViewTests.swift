import Foundation
import Household
import Testing
@testable import Projections

@Suite("Household read models: houses, memberships, join codes", .timeLimit(.minutes(3)))
struct HouseViewTests {
    @Test func aHouseShowsMembersInJoinOrderAndRoomsByName() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        try await fixture.createHouse("h1", by: "ann", name: "Canal House")
        try await fixture.appendForeignEvent()
        try await fixture.join("h1", "bob")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "r1", name: "Kitchen"), by: "ann")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "r2", name: "bathroom"), by: "bob")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "r3", name: "Attic"), by: "ann")
        try await fixture.run(.renameRoom(houseId: "h1", roomId: "r3", name: "Zolder"), by: "ann")
        try await fixture.run(.addRoom(houseId: "h1", roomId: "r4", name: "Hall"), by: "ann")
        try await fixture.run(.removeRoom(houseId: "h1", roomId: "r4"), by: "ann")

        let house = try fixture.queries.house(id: "h1")
        #expect(house == HouseView(
            houseId: "h1", name: "Canal House", joinCode: joinCode("h1"), isClosed: false,
            members: [MemberView(userId: "ann", displayName: "Ann"), MemberView(userId: "bob", displayName: "Bob")],
            rooms: [RoomView(roomId: "r2", name: "bathroom"), RoomView(roomId: "r1", name: "Kitchen"), RoomView(roomId: "r3", name: "Zolder")]))
        #expect(try fixture.queries.houseOf(user: "ann") == "h1")
        #expect(try fixture.queries.houseOf(user: "bob") == "h1")
        #expect(try fixture.queries.house(joinCode: joinCode("h1")) == "h1")
        #expect(try fixture.queries.house(id: "nope") == nil)
        #expect(try fixture.queries.houseOf(user: "cara") == nil)
        #expect(try fixture.queries.house(joinCode: joinCode("nope")) == nil)
    }

    @Test func leavingRemovesTheMembershipAndTheLastOneOutClosesTheHouse() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        try await fixture.createHouse("h1", by: "ann")
        try await fixture.join("h1", "bob")
        try await fixture.run(.leaveHouse(houseId: "h1"), by: "bob")
        #expect(try fixture.queries.houseOf(user: "bob") == nil)
        #expect(try fixture.queries.house(id: "h1")?.members == [MemberView(userId: "ann", displayName: "Ann")])

        // A member who left may found another house; the old one keeps no claim on them.
        try await fixture.createHouse("h2", by: "bob")
        #expect(try fixture.queries.houseOf(user: "bob") == "h2")

        try await fixture.run(.leaveHouse(houseId: "h1"), by: "ann")
        let closed = try #require(try fixture.queries.house(id: "h1"))
        #expect(closed.isClosed && closed.members.isEmpty)
        #expect(try fixture.queries.houseOf(user: "ann") == nil)
        #expect(try fixture.queries.house(joinCode: joinCode("h1")) == nil, "a closed house's code stops working")
        #expect(try fixture.queries.house(joinCode: joinCode("h2")) == "h2")
    }

    @Test func rotatingTheJoinCodeRetiresTheOldOne() async throws {
        let fixture = try await HouseholdFixture()
        defer { fixture.close() }
        try await fixture.createHouse("h1", by: "ann")
        let fresh = joinCode("rotated")
        try await fixture.run(.rotateJoinCode(houseId: "h1", joinCode: fresh), by: "ann")
        #expect(try fixture.queries.house(joinCode: joinCode("h1")) == nil)
        #expect(try fixture.queries.house(joinCode: fresh) == "h1")
        #expect(try fixture.queries.house(id: "h1")?.joinCode == fresh)

        try await fixture.join("h1", "bob", code: fresh)
        #expect(try fixture.queries.houseOf(user: "bob") == "h1")
    }
}
