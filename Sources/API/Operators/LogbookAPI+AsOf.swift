import Household
import Projections
import Quiz

/// The operators' point-in-time reads: app queries answered as they were right after a log
/// position, from a temporary copy of the read models (`AsOfCopies`).
extension LogbookAPI {
    func getAdminAsOfScoreboard(_ input: Operations.GetAdminAsOfScoreboard.Input) async throws -> Operations.GetAdminAsOfScoreboard.Output {
        try requireOperator()
        let copy = try await asOfCopy(input.path.position)
        let houseId = input.path.houseId
        guard try copy.household.house(id: houseId) != nil else { throw ProblemMapping.problem(for: HouseholdError.houseNotFound) }
        let members = try copy.household.scoreboard(house: houseId).map {
            Components.Schemas.ScoreboardEntry(userId: $0.userId, displayName: $0.displayName, points: $0.points)
        }
        return .ok(.init(body: .json(.init(members: members))))
    }

    func getAdminAsOfGame(_ input: Operations.GetAdminAsOfGame.Input) async throws -> Operations.GetAdminAsOfGame.Output {
        try requireOperator()
        let copy = try await asOfCopy(input.path.position)
        guard let game = try copy.quiz.gameAsChallenger(input.path.gameId) else { throw QuizRoutes.gameNotFound }
        return .ok(.init(body: .json(QuizRoutes.game(game))))
    }

    /// The copy as of `position`, or 400 for a position before the first event or beyond the head.
    private func asOfCopy(_ position: Int64) async throws -> AsOfCopies.Copy {
        guard position >= 1 else {
            throw Problem(status: .badRequest, code: "invalid_position", title: "Invalid position", detail: "positions start at 1")
        }
        do {
            return try await runtime.asOfCopies.copy(at: UInt64(position))
        } catch let error as PointInTimeError {
            switch error {
            case .positionZero:
                throw Problem(status: .badRequest, code: "invalid_position", title: "Invalid position", detail: error.description)
            case .beyondHead:
                throw Problem(status: .badRequest, code: "position_beyond_head", title: "Position beyond the head", detail: error.description)
            case .beforeFirstEvent:
                throw Problem(status: .badRequest, code: "invalid_position", title: "Invalid position", detail: error.description)
            case let .readModel(error):
                throw error
            }
        }
    }
}
