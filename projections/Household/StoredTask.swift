import Foundation

/// A task as the `tasks` table stores it: what its `taskAdded` and `taskEdited` events say. When
/// it was last done is in `lastDone` (`TaskLastDone`), so that a completion, nearly every event
/// of a household log, writes that small row without reading the task.
struct StoredTask: Equatable {
    var taskId: String
    var roomId: String
    var name: String
    var frequencyDays: Int
    var points: Int
}

extension StoredTask: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(taskId)
        writer.write(roomId)
        writer.write(name)
        writer.write(frequencyDays)
        writer.write(points)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        taskId = try reader.read()
        roomId = try reader.read()
        name = try reader.read()
        frequencyDays = try reader.read()
        points = try reader.read()
    }
}

/// When a task was last done and by whom, as the `lastDone` table stores it: the latest
/// completion's, written over the one before.
struct TaskLastDone: Equatable {
    var at: Date
    /// The completer, their name as the log stores it (sealed), opened by `HouseholdQueries.tasks`.
    var by: MemberView
}

extension TaskLastDone: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(at)
        writer.write(by)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        at = try reader.read()
        by = try reader.read()
    }
}
