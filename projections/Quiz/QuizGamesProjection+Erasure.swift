import Accounts
import EventSourcing

extension QuizGamesProjection {
    /// An erased player's username reads "Deleted user" in every game of hers from the batch
    /// that projects `account.erased` on, as a rebuild with her key destroyed reads it, so the
    /// erasure's answer already shows it (ADR 0010); the games, answers and points stay.
    /// `playerGames` lists her games, so this is one update per game she played.
    func applyErasure(_ event: AccountEvent, _ model: ReadModelWriter) throws {
        guard case .erased(let p) = event else { return }
        for entry in try model.entries(String.self, in: Self.playerGames, prefix: QuizKeys.playerGamesPrefix(p.userId)) {
            try model.update(GameSetup.self, at: entry.value, in: Self.games) { setup in
                for index in setup.players.indices where setup.players[index].userId == p.userId {
                    setup.players[index].username = PersonalDataSeal.deletedUser
                }
            }
        }
    }
}
