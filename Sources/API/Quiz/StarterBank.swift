import EventSourcing
import Foundation
import Quiz

/// The quiz's starter bank (`quiz-starter-bank.json`, a question bank file), imported as
/// `system` on the first start of an empty data directory so that games can start at once.
enum StarterBank {
    /// The bundled file's questions, checked.
    static func entries() throws -> [QuestionBankFile.Entry] {
        guard let url = Bundle.module.url(forResource: "quiz-starter-bank", withExtension: "json") else {
            throw Problem.internalError
        }
        return try QuestionBankFile.entries(from: Data(contentsOf: url))
    }

    /// Adds `entries` to the bank as `actor`; a question already in the bank is skipped, so an
    /// import may be repeated. Returns how many were added and skipped.
    static func importEntries(_ entries: [QuestionBankFile.Entry], runtime: LogbookRuntime, actor: String) async throws -> (added: Int, skipped: Int) {
        var added = 0, skipped = 0
        let runner = CommandRunner(runtime: runtime)
        for entry in entries {
            let command = entry.command(questionId: Routes.newID())
            do {
                _ = try await runner.run(QuizDecider.self, command, actor: actor)
                added += 1
            } catch {
                guard error.code == QuizError.questionExists.code else { throw error }
                skipped += 1
            }
        }
        return (added, skipped)
    }
}
