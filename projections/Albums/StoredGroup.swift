import Foundation

/// A live group's own row: what every event of it may need, kept small, because an invitation
/// or a leave rewrites it (the count). Members, photos and messages are rows of their own, so
/// that no event rewrites a list that grows with the group.
struct StoredGroup: Sendable, Equatable {
    var groupId: String
    var name: String
    var ownerId: String
    var createdAt: Date
    /// Members and pending invitations, kept with the `members` and `invitations` rows it counts.
    var memberCount: Int

    var summary: GroupSummary { GroupSummary(groupId: groupId, name: name, memberCount: memberCount) }
}

extension StoredGroup: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(groupId)
        writer.write(name)
        writer.write(ownerId)
        writer.write(createdAt)
        writer.write(memberCount)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        groupId = try reader.read()
        name = try reader.read()
        ownerId = try reader.read()
        createdAt = try reader.read()
        memberCount = try reader.read()
    }
}
