import ArgumentParser
import CommandHandling
import EventLog
import EventSourcing
import Foundation
import Quiz

/// `quiz`: the quiz's question bank.
struct QuizAdminCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "quiz",
        abstract: "Manage the quiz's question bank.",
        subcommands: [QuizImportCommand.self]
    )
}

/// `quiz import FILE.json`: adds a question bank file to the log through the quiz decider, as
/// the server would. The file is checked whole first, so a bad file adds nothing; questions
/// already in the bank are skipped, so importing a file twice adds it once.
struct QuizImportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Import questions from a JSON file: [{\"text\", \"answers\": [2-6], \"correctAnswer\", \"category\"?}].",
        discussion: """
            This verb writes, so the server must be stopped (only one process may write a log); \
            a running server takes questions through POST /v1/quiz/questions with the operator token. \
            The server's read models pick the questions up when it next starts.
            """
    )

    @OptionGroup var dataDirectory: DataDirectoryOption

    @Argument(help: ArgumentHelp("The question bank file.", valueName: "FILE.json"))
    var file: String

    @Option(help: "The actor recorded on the imported events.")
    var actor = "operator"

    func run() async throws {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: file))
        } catch {
            printToStandardError("logbook-admin: cannot read \(file): \(error.localizedDescription)")
            throw ExitCode(AdminError.usageStatus)
        }
        let entries: [QuestionBankFile.Entry]
        do {
            entries = try QuestionBankFile.entries(from: data)
        } catch {
            printToStandardError("logbook-admin: \(file) was not imported:\n\(error.description)")
            throw ExitCode(AdminError.failureStatus)
        }
        let path = try dataDirectory.resolvedPath()
        let store = try dataDirectory.openWritableStore()
        defer { store.close() }
        let handler = CommandHandler(store: store)
        var added = 0, skipped = 0
        for entry in entries {
            let id = UUID.timeOrdered().uuidString.lowercased()
            let metadata = CommandMetadata(actor: actor, now: Date(), commandID: .timeOrdered())
            do throws(CommandFailure<QuizError>) {
                _ = try await handler.handle(QuizDecider.self, entry.command(questionId: id), metadata: metadata)
                added += 1
            } catch .rejected(.questionExists) {
                skipped += 1
            } catch {
                printToStandardError("logbook-admin: stopped after \(added) questions: \(error)")
                throw ExitCode(AdminError.failureStatus)
            }
        }
        print("imported \(added) questions into \(path); skipped \(skipped) already in the bank")
    }
}
