import Crypto
import EventLog
import EventSourcing
import Foundation
import Household
import Testing
@testable import Projections

/// A completer's name is kept in `history` and `tasks` as the log stores it (sealed) and opened
/// when read (`HouseholdProjectionInput`, ADR 0009): never in those read models in the clear, and
/// read as erased as soon as the user's key is destroyed, with no rebuild.
@Suite("Household read models: completers' names kept sealed", .timeLimit(.minutes(2)))
struct SealedNameTests {
    private static let name = "Eve Marker-7f3a"

    /// Given: house h1 of Ann and Eve (named `name`), Eve has done its one task, all of it
    /// sealed under `keyring`.
    private static func houseWhereEveDidATask(keyring: PersonalDataKeyStore) async throws -> HouseholdFixture {
        let fixture = try await HouseholdFixture(projections: HouseholdProjections.all, personalData: keyring)
        do {
            try await fixture.createHouse("h1", by: "ann")
            try await fixture.join("h1", "eve", displayName: name)
            try await fixture.run(.addRoom(houseId: "h1", roomId: "r1", name: "Kitchen"), by: "ann")
            try await fixture.run(.addTask(houseId: "h1", roomId: "r1", taskId: "t1", name: "Dishes", frequencyDays: 1, points: 2), by: "ann")
            try await fixture.complete("h1", "t1", by: "eve")
            return fixture
        } catch {
            fixture.close()
            throw error
        }
    }

    @Test func aCompletersNameIsNeverInTheReadModelsAndReadsErasedAtOnce() async throws {
        let keys = try TemporaryKeyStore()
        defer { keys.remove() }
        let keyring = keys.keyring
        let fixture = try await Self.houseWhereEveDidATask(keyring: keyring)
        defer { fixture.close() }
        let queries = fixture.queries
        #expect(try await queries.history(house: "h1", limit: nil, cursor: nil).items.map(\.displayName) == [Self.name])
        #expect(try queries.tasks(house: "h1", room: "r1", now: HouseholdFixture.start).first?.lastDoneBy?.displayName == Self.name)
        for projection: any Projection in [HouseholdProjections.history, HouseholdProjections.tasks] {
            let model = try RawReadModel(projection, in: fixture.engine)
            #expect(model.count > 0 && !model.holds(Self.name), "\(projection.name) keeps the name sealed")
        }

        try keyring.erase("eve")
        #expect(try await queries.history(house: "h1", limit: nil, cursor: nil).items.map(\.displayName) == [PersonalDataSeal.deletedUser])
        #expect(try queries.tasks(house: "h1", room: "r1", now: HouseholdFixture.start).first?.lastDoneBy?.displayName == PersonalDataSeal.deletedUser)
    }

    /// ADR 0018: `houses` keeps members' names sealed too, so the read-model file never holds
    /// one in the clear (no scrub needed for its freed pages), and the scoreboard, answered from
    /// memory, and the house read "Deleted user" as soon as her key is destroyed.
    @Test func aMembersNameIsNeverInTheReadModelFileAndReadsErasedAtOnce() async throws {
        let keys = try TemporaryKeyStore()
        defer { keys.remove() }
        let keyring = keys.keyring
        let fixture = try await Self.houseWhereEveDidATask(keyring: keyring)
        defer { fixture.close() }
        let queries = fixture.queries
        #expect(try queries.scoreboard(house: "h1").map(\.displayName) == [Self.name, "Ann"])
        #expect(try queries.house(id: "h1")?.members.map(\.displayName) == ["Ann", Self.name])
        #expect(try !RawReadModel(HouseholdProjections.houses, in: fixture.engine).holds(Self.name))
        let file = (fixture.directory as NSString).appendingPathComponent("readmodels/data.mdb")
        let bytes = try #require(FileManager.default.contents(atPath: file))
        #expect(bytes.count > 0 && bytes.range(of: Data(Self.name.utf8)) == nil, "the read-model file never held the name in the clear")

        try keyring.erase("eve")  // what `ErasureFollower` does in the batch that projects `account.erased`
        #expect(try queries.scoreboard(house: "h1").map(\.displayName) == ["Deleted user", "Ann"], "the cached board forgets her name")
        #expect(try queries.scoreboard(house: "h1").map(\.points) == [2, 0])
        #expect(try queries.house(id: "h1")?.members.map(\.displayName) == ["Ann", PersonalDataSeal.deletedUser])
        try await fixture.engine.rebuild(HouseholdProjections.houses.name)
        #expect(try queries.scoreboard(house: "h1").map(\.displayName) == ["Deleted user", "Ann"], "a rebuild reads the same")
    }

    /// A stored name that does not open is a fault of the service, told apart from a key store
    /// that does not answer (which a client may retry); a plain name written before sealing
    /// reads without a keyring, an erased subject's marker as the placeholder.
    @Test func aNameThatDoesNotOpenAndAKeyStoreThatDoesNotAnswerAreToldApart() async throws {
        let keys = try TemporaryKeyStore()
        defer { keys.remove() }
        let keyring = keys.keyring
        let sealed = try PersonalDataSeal.seal(Self.name, subject: "eve", keyring: keyring)
        let plain = try await HouseholdFixture()
        defer { plain.close() }
        #expect(try plain.queries.openedName("Eve", of: "eve") == "Eve")
        #expect(throws: ReadModelError.self) { try plain.queries.openedName(sealed, of: "eve") }  // no keyring: refused

        let fixture = try await HouseholdFixture(projections: HouseholdProjections.all, personalData: keyring)
        defer { fixture.close() }
        let queries = fixture.queries
        #expect(try queries.openedName("Eve", of: "eve") == "Eve")
        #expect(try queries.openedName(PersonalDataSeal.erasedMarker, of: "eve") == PersonalDataSeal.deletedUser)
        #expect(try queries.openedName(sealed, of: "eve") == Self.name)
        _ = try PersonalDataSeal.seal("Bob", subject: "bob", keyring: keyring)  // bob has a key of his own
        #expect(throws: ReadModelError.self) { try queries.openedName(sealed, of: "bob") }  // eve's name as bob's
        let refusal = #expect(throws: ReadModelError.self) { try queries.openedName(PersonalDataSeal.prefix + "AAAA", of: "eve") }
        guard case .undecodable(let what, let key, _)? = refusal else {
            Issue.record("a tampered name is undecodable, not \(String(describing: refusal))")
            return
        }
        #expect(what == "a completer's name" && key == "eve")

        let down = try await HouseholdFixture(projections: HouseholdProjections.all, personalData: KeyStoreDown())
        defer { down.close() }
        #expect(throws: ReadModelError.keysUnavailable(reason: "down")) { try down.queries.openedName(sealed, of: "eve") }
    }
}

/// A key store that does not answer (a shared one on PostgreSQL that is down).
private struct KeyStoreDown: PersonalDataKeyring {
    func dataKey(of subject: String, create: Bool) throws -> SymmetricKey? {
        throw PersonalDataError.keyStore(path: "the test's key store", reason: "down")
    }

    func blindTag(_ purpose: String, _ value: String) -> String { "" }
}
