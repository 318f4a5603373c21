import EventLog
import Foundation
import Household
import Projections

/// The household routes (SPEC §4 household): commands go through `CommandRunner`, so they are
/// idempotent by `Idempotency-Key` and answered only once the read models include them; queries
/// read the household read models and are for members only.
extension LogbookAPI {
    func createHouse(_ input: Operations.CreateHouse.Input) async throws -> Operations.CreateHouse.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = HouseholdCommand.createHouse(
            houseId: Routes.newID(), name: body.name, joinCode: HouseholdRoutes.newJoinCode(),
            userId: caller.userId, displayName: try displayName(of: caller.userId))
        let outcome = try await commands.run(HouseholdDecider.self, command, actor: caller.userId)
        // From the events, not from `command`: a retried request answers with what the first made.
        guard case let .houseCreated(created)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(
            houseId: created.houseId, joinCode: created.joinCode, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func joinHouse(_ input: Operations.JoinHouse.Input) async throws -> Operations.JoinHouse.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        // The code is checked before a limit refuses: a right one always joins (`JoinThrottle`).
        let configuration = runtime.configuration
        guard let houseId = try await runtime.householdJoins.check(
            userId: caller.userId, address: RequestInfo.current.clientAddress, clock: configuration.clock, pause: configuration.pause,
            lookUp: { try runtime.household.house(joinCode: body.joinCode) }
        ) else {
            throw ProblemMapping.problem(for: HouseholdError.wrongJoinCode)
        }
        let command = HouseholdCommand.joinHouse(
            houseId: houseId, joinCode: body.joinCode, userId: caller.userId, displayName: try displayName(of: caller.userId))
        let outcome = try await commands.run(HouseholdDecider.self, command, actor: caller.userId)
        return .ok(.init(body: .json(.init(houseId: houseId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func getMyHouse(_ input: Operations.GetMyHouse.Input) async throws -> Operations.GetMyHouse.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        guard let houseId = try runtime.household.houseOf(user: caller.userId), let house = try runtime.household.house(id: houseId), !house.isClosed else {
            throw Problem(status: .notFound, code: "not_in_house", title: "Not in a house", detail: "you are not a member of any house")
        }
        let eTag = try await eTag(of: EntityStream.house(house.houseId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(HouseholdRoutes.house(house))))
    }

    func getHouse(_ input: Operations.GetHouse.Input) async throws -> Operations.GetHouse.Output {
        let caller = try authenticate()
        let asOf = projectedPosition
        let house = try memberHouse(input.path.houseId, caller.userId)
        let eTag = try await eTag(of: EntityStream.house(house.houseId), asOf: asOf)
        return .ok(.init(headers: .init(eTag: eTag), body: .json(HouseholdRoutes.house(house))))
    }

    func leaveHouse(_ input: Operations.LeaveHouse.Input) async throws -> Operations.LeaveHouse.Output {
        let caller = try authenticate()
        _ = try await commands.run(HouseholdDecider.self, .leaveHouse(houseId: input.path.houseId), actor: caller.userId, entity: EntityStream.house(input.path.houseId))
        return .noContent(.init())
    }

    func rotateJoinCode(_ input: Operations.RotateJoinCode.Input) async throws -> Operations.RotateJoinCode.Output {
        let caller = try authenticate()
        let command = HouseholdCommand.rotateJoinCode(houseId: input.path.houseId, joinCode: HouseholdRoutes.newJoinCode())
        let outcome = try await commands.run(HouseholdDecider.self, command, actor: caller.userId, entity: EntityStream.house(input.path.houseId))
        guard case let .joinCodeRotated(rotated)? = outcome.events.first else { throw Problem.internalError }
        return .ok(.init(body: .json(.init(joinCode: rotated.joinCode, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func addRoom(_ input: Operations.AddRoom.Input) async throws -> Operations.AddRoom.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = HouseholdCommand.addRoom(houseId: input.path.houseId, roomId: Routes.newID(), name: body.name)
        let outcome = try await commands.run(HouseholdDecider.self, command, actor: caller.userId, entity: EntityStream.house(input.path.houseId))
        guard case let .roomAdded(added)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(roomId: added.roomId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func renameRoom(_ input: Operations.RenameRoom.Input) async throws -> Operations.RenameRoom.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = HouseholdCommand.renameRoom(houseId: input.path.houseId, roomId: input.path.roomId, name: body.name)
        let outcome = try await commands.run(HouseholdDecider.self, command, actor: caller.userId, entity: EntityStream.house(input.path.houseId))
        return .ok(.init(body: .json(outcome.result)))
    }

    func removeRoom(_ input: Operations.RemoveRoom.Input) async throws -> Operations.RemoveRoom.Output {
        let caller = try authenticate()
        _ = try await commands.run(HouseholdDecider.self, .removeRoom(houseId: input.path.houseId, roomId: input.path.roomId), actor: caller.userId, entity: EntityStream.house(input.path.houseId))
        return .noContent(.init())
    }

    func addTask(_ input: Operations.AddTask.Input) async throws -> Operations.AddTask.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = HouseholdCommand.addTask(
            houseId: input.path.houseId, roomId: input.path.roomId, taskId: Routes.newID(),
            name: body.name, frequencyDays: body.frequencyDays, points: body.points)
        let outcome = try await commands.run(HouseholdDecider.self, command, actor: caller.userId, entity: EntityStream.house(input.path.houseId))
        guard case let .taskAdded(added)? = outcome.events.first else { throw Problem.internalError }
        return .created(.init(body: .json(.init(taskId: added.taskId, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func listRoomTasks(_ input: Operations.ListRoomTasks.Input) async throws -> Operations.ListRoomTasks.Output {
        let caller = try authenticate()
        let house = try memberHouse(input.path.houseId, caller.userId)
        guard house.rooms.contains(where: { $0.roomId == input.path.roomId }) else { throw ProblemMapping.problem(for: HouseholdError.roomNotFound) }
        let tasks = try runtime.household.tasks(house: house.houseId, room: input.path.roomId, now: runtime.configuration.clock())
        return .ok(.init(body: .json(.init(tasks: tasks.map(HouseholdRoutes.task)))))
    }

    func editTask(_ input: Operations.EditTask.Input) async throws -> Operations.EditTask.Output {
        let caller = try authenticate()
        guard case let .json(body) = input.body else { throw Routes.unsupportedBody }
        let command = HouseholdCommand.editTask(
            houseId: input.path.houseId, taskId: input.path.taskId, name: body.name, frequencyDays: body.frequencyDays, points: body.points)
        let outcome = try await commands.run(HouseholdDecider.self, command, actor: caller.userId, entity: EntityStream.house(input.path.houseId))
        return .ok(.init(body: .json(outcome.result)))
    }

    func removeTask(_ input: Operations.RemoveTask.Input) async throws -> Operations.RemoveTask.Output {
        let caller = try authenticate()
        _ = try await commands.run(HouseholdDecider.self, .removeTask(houseId: input.path.houseId, taskId: input.path.taskId), actor: caller.userId, entity: EntityStream.house(input.path.houseId))
        return .noContent(.init())
    }

    func completeTask(_ input: Operations.CompleteTask.Input) async throws -> Operations.CompleteTask.Output {
        let caller = try authenticate()
        let command = HouseholdCommand.completeTask(houseId: input.path.houseId, taskId: input.path.taskId)
        let outcome = try await commands.run(HouseholdDecider.self, command, actor: caller.userId, entity: EntityStream.house(input.path.houseId))
        guard case let .taskCompleted(completed)? = outcome.events.first else { throw Problem.internalError }
        // From the decision's state, or for a retry the state right after the first completion:
        // no read, and a retry answers the first total, not today's.
        guard let state = outcome.state else { throw Problem.internalError }
        let total = state.totalPoints(of: completed.userId, in: completed.houseId)
        return .created(.init(body: .json(.init(
            pointsAwarded: completed.points, totalPoints: total, position: outcome.responsePosition, events: outcome.eventTypes))))
    }

    func getHouseHistory(_ input: Operations.GetHouseHistory.Input) async throws -> Operations.GetHouseHistory.Output {
        let caller = try authenticate()
        try checkMember(input.path.houseId, caller.userId)
        let page: HistoryPage
        do {
            page = try await runtime.household.history(house: input.path.houseId, limit: input.query.limit, cursor: input.query.cursor)
        } catch {
            throw ProblemMapping.problem(for: error)
        }
        return .ok(.init(body: .json(.init(items: page.items.map(HouseholdRoutes.historyItem), next: page.next))))
    }

    func getScoreboard(_ input: Operations.GetScoreboard.Input) async throws -> Operations.GetScoreboard.Output {
        let caller = try authenticate()
        try checkMember(input.path.houseId, caller.userId)
        let members = try runtime.household.scoreboard(house: input.path.houseId).map {
            Components.Schemas.ScoreboardEntry(userId: $0.userId, displayName: $0.displayName, points: $0.points)
        }
        return .ok(.init(body: .json(.init(members: members))))
    }

    // MARK: - Helpers

    var commands: CommandRunner { CommandRunner(runtime: runtime) }

    /// The open house `houseId` if `userId` is a member: 404 for an unknown or closed house,
    /// 403 for someone else's (the same answers the household commands give).
    func memberHouse(_ houseId: String, _ userId: String) throws -> HouseView {
        try checkMember(houseId, userId)
        // A member's house exists; only a race with its closing can make it vanish in between.
        guard let house = try runtime.household.house(id: houseId), !house.isClosed else { throw ProblemMapping.problem(for: HouseholdError.houseNotFound) }
        return house
    }

    /// Refuses `userId` unless a member of open house `houseId`, from the in-memory memberships:
    /// the check of every household query, with no read of the house itself.
    func checkMember(_ houseId: String, _ userId: String) throws {
        guard let membership = try runtime.household.membership(house: houseId), !membership.isClosed else {
            throw ProblemMapping.problem(for: HouseholdError.houseNotFound)
        }
        guard membership.admits(userId) else { throw ProblemMapping.problem(for: HouseholdError.notAMember) }
    }

    /// The display name the caller's account has now, shown to housemates.
    func displayName(of userId: String) throws -> String {
        guard let profile = try runtime.accounts.profile(userId) else { throw Problem.unauthorized(tokenGiven: true) }
        return profile.displayName
    }
}
