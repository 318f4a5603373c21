import Foundation

/// A task as the `tasks` table stores it: the view without its priority, which depends on the
/// time of the query.
struct StoredTask: Codable, Equatable {
    var taskId: String
    var roomId: String
    var name: String
    var frequencyDays: Int
    var points: Int
    var lastDoneAt: Date?
    var lastDoneBy: MemberView?
}
