import EventSourcing
import Foundation

/// A question bank file: a JSON array of `{text, answers, correctAnswer, category?}`, the format
/// of `logbook-admin quiz import` and of the starter bank.
public enum QuestionBankFile {
    /// One question of a file.
    public struct Entry: Codable, Sendable, Equatable {
        /// The question.
        public var text: String
        /// 2–6 distinct answers.
        public var answers: [String]
        /// One of `answers`.
        public var correctAnswer: String
        /// Optional.
        public var category: String?

        /// A question with its answers.
        public init(text: String, answers: [String], correctAnswer: String, category: String? = nil) {
            self.text = text
            self.answers = answers
            self.correctAnswer = correctAnswer
            self.category = category
        }

        /// The command adding this entry as question `questionId`.
        public func command(questionId: String) -> QuizCommand {
            .addQuestion(.init(questionId: questionId, text: text, answers: answers, correctAnswer: correctAnswer, category: category))
        }
    }

    /// Why a file cannot be imported.
    public enum Problem: Error, Sendable, Equatable, CustomStringConvertible {
        /// Not a JSON array of entries.
        case unreadable(String)
        /// More entries than `entriesMax`.
        case tooManyEntries(Int)
        /// Entries that would be refused, by 0-based position in the file, with their problems.
        case invalidEntries([(index: Int, errors: [FieldError])])

        /// For an operator.
        public var description: String {
            switch self {
            case .unreadable(let reason): "not a JSON array of questions: \(reason)"
            case .tooManyEntries(let count): "\(count) questions; one file may hold at most \(QuestionBankFile.entriesMax)"
            case .invalidEntries(let entries):
                entries.map { entry in
                    "question \(entry.index): " + entry.errors.map { "\($0.field) \($0.message)" }.joined(separator: "; ")
                }.joined(separator: "\n")
            }
        }

        public static func == (lhs: Problem, rhs: Problem) -> Bool { lhs.description == rhs.description }
    }

    /// Questions one file may hold.
    public static let entriesMax = 10_000

    /// The entries of `data`, each checked as `addQuestion` would check it, so that a bad file is
    /// refused whole before anything is imported.
    public static func entries(from data: Data) throws(Problem) -> [Entry] {
        let entries: [Entry]
        do {
            entries = try JSONDecoder().decode([Entry].self, from: data)
        } catch {
            throw .unreadable("\(error)")
        }
        guard entries.count <= entriesMax else { throw .tooManyEntries(entries.count) }
        var invalid: [(index: Int, errors: [FieldError])] = []
        for (index, entry) in entries.enumerated() {
            do throws(QuizError) {
                _ = try QuizDecider.checked(.init(questionId: "check", text: entry.text, answers: entry.answers,
                                                  correctAnswer: entry.correctAnswer, category: entry.category))
            } catch {
                invalid.append((index, error.fieldErrors))
            }
        }
        guard invalid.isEmpty else { throw .invalidEntries(invalid) }
        return entries
    }
}
