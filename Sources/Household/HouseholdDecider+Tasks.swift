import EventSourcing
import Foundation

extension HouseholdDecider {
    static func addTask(
        _ houseId: String, roomId: String, taskId: String, name rawName: String, frequencyDays: Int, points: Int,
        actor: String, state: HouseholdState
    ) throws(HouseholdError) -> [HouseholdEvent] {
        let house = try house(houseId, memberActor: actor, in: state)
        var checks = FieldChecks()
        let name = checks.name(rawName)
        checks.number(frequencyDays, in: HouseholdLimits.frequencyDays, field: "frequencyDays")
        checks.number(points, in: HouseholdLimits.points, field: "points")
        try checks.check()
        guard house.rooms[roomId] != nil else { throw .roomNotFound }
        guard house.tasks[taskId] == nil else { throw .idTaken }
        guard house.taskIds(inRoom: roomId).count < HouseholdLimits.tasksPerRoomMax else { throw .limitReached(.tasks) }
        return [.taskAdded(.init(
            houseId: houseId, roomId: roomId, taskId: taskId, name: name, frequencyDays: frequencyDays, points: points))]
    }

    static func editTask(
        _ houseId: String, taskId: String, name rawName: String?, frequencyDays: Int?, points: Int?,
        actor: String, state: HouseholdState
    ) throws(HouseholdError) -> [HouseholdEvent] {
        let house = try house(houseId, memberActor: actor, in: state)
        var checks = FieldChecks()
        let name = rawName.map { checks.name($0) }
        if let frequencyDays { checks.number(frequencyDays, in: HouseholdLimits.frequencyDays, field: "frequencyDays") }
        if let points { checks.number(points, in: HouseholdLimits.points, field: "points") }
        try checks.check()
        guard let task = house.tasks[taskId] else { throw .taskNotFound }
        let edited = HouseholdEvent.TaskEdited(
            houseId: houseId, roomId: task.roomId, taskId: taskId, name: name ?? task.name,
            frequencyDays: frequencyDays ?? task.frequencyDays, points: points ?? task.points)
        let unchanged = edited.name == task.name && edited.frequencyDays == task.frequencyDays
            && edited.points == task.points
        return unchanged ? [] : [.taskEdited(edited)]
    }

    static func removeTask(_ houseId: String, taskId: String, actor: String, state: HouseholdState)
        throws(HouseholdError) -> [HouseholdEvent]
    {
        let house = try house(houseId, memberActor: actor, in: state)
        guard let task = house.tasks[taskId] else { throw .taskNotFound }
        return [.taskRemoved(.init(houseId: houseId, roomId: task.roomId, taskId: taskId))]
    }

    /// Awards the task's points as they are now; later edits do not change what was earned.
    static func completeTask(_ houseId: String, taskId: String, actor: String, now: Date, state: HouseholdState)
        throws(HouseholdError) -> [HouseholdEvent]
    {
        let house = try house(houseId, memberActor: actor, in: state)
        guard let task = house.tasks[taskId] else { throw .taskNotFound }
        guard let room = house.rooms[task.roomId], let member = house.members[actor] else {
            // removeRoom removes tasks first and `house(_:memberActor:in:)` checked membership.
            assertionFailure("a task's room and the acting member exist")
            throw .taskNotFound
        }
        return [.taskCompleted(.init(
            houseId: houseId, taskId: taskId, taskName: task.name, roomId: task.roomId, roomName: room.name,
            userId: actor, displayName: member.displayName, points: task.points, completedAt: now))]
    }
}
