import Foundation

/// A task as the `tasks` table stores it: the view without its priority, which depends on the
/// time of the query.
struct StoredTask: Equatable {
    var taskId: String
    var roomId: String
    var name: String
    var frequencyDays: Int
    var points: Int
    var lastDoneAt: Date?
    var lastDoneBy: MemberView?
}

extension StoredTask: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(taskId)
        writer.write(roomId)
        writer.write(name)
        writer.write(frequencyDays)
        writer.write(points)
        writer.write(lastDoneAt)
        writer.write(lastDoneBy)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        taskId = try reader.read()
        roomId = try reader.read()
        name = try reader.read()
        frequencyDays = try reader.read()
        points = try reader.read()
        lastDoneAt = try reader.read()
        lastDoneBy = try reader.read()
    }
}
