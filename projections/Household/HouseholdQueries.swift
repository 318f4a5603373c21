import EventLog
import EventSourcing
import Foundation
import Household

/// What the household routes ask of the read models. Queries read the served copies as they
/// are; a command's handler waits with `ProjectionEngine.waitUntilProjected` before answering,
/// which is what makes the next query read its own writes.
public struct HouseholdQueries<Store: EventStore>: Sendable {
    /// The engine the household projections are registered with.
    public let engine: ProjectionEngine<Store>
    /// Members by house: every household query checks one.
    let memberships: ReadModelCache<String, HouseMembership>
    /// Scoreboards by house: the app's most frequent query.
    let scoreboards: ReadModelCache<String, [ScoreboardEntry]>

    /// Queries over `engine`, which must run `HouseholdProjections.all`: reading an unregistered
    /// projection would silently answer from empty tables. Memberships and scoreboards are
    /// cached in memory, up to `cachedHousesMax` houses each, and kept current by the engine's
    /// live batches.
    public init(engine: ProjectionEngine<Store>, cachedHousesMax: Int = 100_000) {
        let registered = Set(engine.projections.map(\.name))
        precondition(HouseholdProjections.all.allSatisfy { registered.contains($0.name) }, "household projections are registered")
        self.engine = engine
        memberships = ReadModelCache(entriesMax: cachedHousesMax)
        scoreboards = ReadModelCache(entriesMax: cachedHousesMax)
        engine.addObserver(HouseCacheObserver(memberships: memberships, scoreboards: scoreboards))
    }

    /// Who may see house `houseId`; nil when unknown.
    public func membership(house houseId: String) throws(ReadModelError) -> HouseMembership? {
        try memberships.value(houseId) { () throws(ReadModelError) in
            try storedHouse(houseId).map { HouseMembership(isClosed: $0.view.isClosed, memberIds: Set($0.view.members.map(\.userId))) }
        }
    }

    /// The house `id`, also when closed; nil when unknown. Its members' names opened (an erased
    /// user's reads as `PersonalDataSeal.deletedUser`).
    public func house(id houseId: String) throws(ReadModelError) -> HouseView? {
        guard var view = try storedHouse(houseId)?.view else { return nil }
        view.members = try openedMembers(view.members)
        return view
    }

    /// The id of the house `userId` is a member of now; nil when none.
    public func houseOf(user userId: String) throws(ReadModelError) -> String? {
        try engine.read(HouseholdProjections.houses) {
            try $0.value(String.self, at: userId, in: HouseholdHousesProjection.memberships)
        }
    }

    /// The id of the house whose current join code is `joinCode`; nil for a rotated-away,
    /// closed or unknown code.
    public func house(joinCode: String) throws(ReadModelError) -> String? {
        try engine.read(HouseholdProjections.houses) {
            try $0.value(String.self, at: joinCode, in: HouseholdHousesProjection.joinCodes)
        }
    }

    /// Room `roomId`'s tasks with their priority at `now`: most urgent first, then by name.
    /// Empty for an unknown room or a closed house.
    public func tasks(house houseId: String, room roomId: String, now: Date) throws(ReadModelError) -> [TaskView] {
        let prefix = HouseholdKeys.roomPrefix(house: houseId, room: roomId)
        let (stored, lastDone) = try engine.read(HouseholdProjections.tasks) { reader in
            // The decider bounds a room's tasks (`HouseholdLimits.tasksPerRoomMax`), so reading
            // them all is bounded too.
            (try reader.entries(StoredTask.self, in: HouseholdTasksProjection.tasks, prefix: prefix, limit: .max),
             try reader.entries(TaskLastDone.self, in: HouseholdTasksProjection.lastDone, prefix: prefix, limit: .max))
        }
        var doneByKey = Dictionary(uniqueKeysWithValues: lastDone.map { ($0.key, $0.value) })
        for (key, done) in doneByKey { doneByKey[key]?.by.displayName = try openedName(done.by.displayName, of: done.by.userId) }
        return stored.map { key, task in
            let done = doneByKey[key]
            return TaskView(
                taskId: task.taskId, roomId: task.roomId, name: task.name, frequencyDays: task.frequencyDays,
                points: task.points, lastDoneAt: done?.at, lastDoneBy: done?.by,
                priority: HouseholdPriority.of(lastDoneAt: done?.at, frequencyDays: task.frequencyDays, now: now))
        }.sorted { (Self.rank($0.priority), $0.name, $0.taskId) < (Self.rank($1.priority), $1.name, $1.taskId) }
    }

    /// The house's current members by points, highest first; ties by display name, then user id.
    /// Members without points are listed with 0; former members are not listed.
    ///
    /// Answered from memory: the names are opened when the board is read into the cache, which
    /// forgets every board once the keyring learns of an erasure (`openedUnder`), so an erased
    /// member reads "Deleted user" from her key's destruction on.
    public func scoreboard(house houseId: String) throws(ReadModelError) -> [ScoreboardEntry] {
        guard let erasures = engine.logItemsKeptUnder ?? (engine.personalData == nil ? 0 : nil) else {
            return try readScoreboard(house: houseId)  // a keyring that counts no erasures: nothing opened is kept
        }
        // An unknown house's empty board is not remembered, so a new house is seen at once.
        return try scoreboards.value(houseId, openedUnder: erasures) { () throws(ReadModelError) in
            let board = try readScoreboard(house: houseId)
            return board.isEmpty ? nil : board
        } ?? []
    }

    private func readScoreboard(house houseId: String) throws(ReadModelError) -> [ScoreboardEntry] {
        // One read: the member list and the points come from the same snapshot.
        let read = try engine.read(HouseholdProjections.houses) { reader -> (StoredHouse, [String: Int])? in
            guard let house = try reader.value(StoredHouse.self, at: houseId, in: HouseholdHousesProjection.houses) else { return nil }
            let prefix = HouseholdKeys.housePrefix(houseId)
            let entries = try reader.entries(Int.self, in: HouseholdHousesProjection.points, prefix: prefix, limit: .max)
            return (house, Dictionary(uniqueKeysWithValues: entries.map { (String($0.key.dropFirst(prefix.count)), $0.value) }))
        }
        guard let (house, points) = read else { return [] }
        return try openedMembers(house.view.members)
            .map { ScoreboardEntry(userId: $0.userId, displayName: $0.displayName, points: points[ReadModelKeys.component($0.userId)] ?? 0) }
            .sorted { (-$0.points, $0.displayName, $0.userId) < (-$1.points, $1.displayName, $1.userId) }
    }

    /// Most urgent first; the task id only settles equal names, so the order is total.
    private static func rank(_ priority: HouseholdPriority) -> Int {
        switch priority {
        case .high: 0
        case .medium: 1
        case .low: 2
        }
    }

    /// `members` with their names opened, as `houses` keeps them sealed (ADR 0018).
    private func openedMembers(_ members: [MemberView]) throws(ReadModelError) -> [MemberView] {
        var opened = members
        for index in opened.indices {
            opened[index].displayName = try openedName(opened[index].displayName, of: opened[index].userId, what: "a member's name")
        }
        return opened
    }

    func storedHouse(_ houseId: String) throws(ReadModelError) -> StoredHouse? {
        try engine.read(HouseholdProjections.houses) {
            try $0.value(StoredHouse.self, at: houseId, in: HouseholdHousesProjection.houses)
        }
    }
}
