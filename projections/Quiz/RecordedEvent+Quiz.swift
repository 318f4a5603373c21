import EventLog
import Quiz

extension RecordedEvent {
    /// The quiz event this record holds, or nil for another domain's event.
    ///
    /// Every projection sees the whole log; the prefix check keeps the cost of other domains'
    /// events to a string comparison instead of a JSON decode.
    func quizEvent() throws -> QuizEvent? {
        guard type.hasPrefix("quiz.") else { return nil }
        return try QuizEvent.decode(typeName: type, schemaVersion: schemaVersion, data: data)
    }
}
