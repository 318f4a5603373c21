import EventLog
import EventSourcing
import Foundation

/// What the albums routes ask of the read model. The tables hold what the events say, the same
/// for every reader; only members may see a group, which the caller checks with `isMember`
/// before answering anything else about it. Queries read the served copy as it is; a command's
/// handler waits with `ProjectionEngine.waitUntilProjected` before answering, which is what
/// makes the next query read its own writes.
public struct AlbumsQueries<Store: EventStore>: Sendable {
    /// The engine the albums projections are registered with.
    public let engine: ProjectionEngine<Store>

    /// Queries over `engine`, which must run `AlbumsProjections.all`: reading an unregistered
    /// projection would silently answer from empty tables.
    public init(engine: ProjectionEngine<Store>) {
        let registered = Set(engine.projections.map(\.name))
        precondition(AlbumsProjections.all.allSatisfy { registered.contains($0.name) }, "albums projections are registered")
        self.engine = engine
    }

    /// The live groups whose members include `userId`'s current e-mail, by name (case-
    /// insensitively), then id; none for an unknown or erased account.
    public func groups(ofUser userId: String) throws(ReadModelError) -> [GroupSummary] {
        let groups = try engine.read(AlbumsProjections.groups) { model -> [GroupSummary] in
            guard let email = try Self.email(of: userId, model) else { return [] }
            return try model.entries(String.self, in: Table.memberships, prefix: AlbumsKeys.membershipPrefix(email), limit: .max)
                .compactMap { try model.value(StoredGroup.self, at: AlbumsKeys.group($0.value), in: Table.groups)?.summary }
        }
        return groups.map { (FoldedName.folded($0.name), $0) }.sorted { ($0.0, $0.1.groupId) < ($1.0, $1.1.groupId) }.map(\.1)
    }

    /// Group `groupId` with its members, each joined to the account holding its address now;
    /// nil when unknown or deleted. The decider bounds members
    /// (`AlbumsLimits.membersPerGroupMax`), so reading them all is bounded.
    public func group(_ groupId: String) throws(ReadModelError) -> GroupView? {
        try engine.read(AlbumsProjections.groups) { model -> GroupView? in
            guard let group = try model.value(StoredGroup.self, at: AlbumsKeys.group(groupId), in: Table.groups) else { return nil }
            let members = try model.entries(String.self, in: Table.members, prefix: AlbumsKeys.groupPrefix(groupId), limit: .max)
                .map { entry in
                    let userId = try model.value(String.self, at: AlbumsKeys.address(entry.value), in: Table.accountEmails)
                    let account = try userId.flatMap { try model.value(AlbumsAccount.self, at: $0, in: Table.accounts) }
                    return GroupMemberView(email: entry.value, userId: account == nil ? nil : userId, displayName: account?.displayName)
                }
                // Keys hold addresses escaped or hashed, so their order is not the addresses'.
                .sorted { $0.email.utf8.lexicographicallyPrecedes($1.email.utf8) }
            return GroupView(groupId: group.groupId, name: group.name, ownerId: group.ownerId, createdAt: group.createdAt, members: members)
        }
    }

    /// Whether `userId`'s current e-mail is a member of live group `groupId`.
    public func isMember(_ userId: String, of groupId: String) throws(ReadModelError) -> Bool {
        try engine.read(AlbumsProjections.groups) { model in
            guard let email = try Self.email(of: userId, model) else { return false }
            return try model.value(String.self, at: AlbumsKeys.member(groupId, email: email), in: Table.members) != nil
        }
    }

    /// Whether `userId` and `otherId` are members of one live group, by their current e-mails
    /// (who may see whose avatar). Reads `userId`'s groups, each with one lookup.
    public func shareAGroup(_ userId: String, _ otherId: String) throws(ReadModelError) -> Bool {
        try engine.read(AlbumsProjections.groups) { model in
            guard let email = try Self.email(of: userId, model), let other = try Self.email(of: otherId, model) else { return false }
            return try model.entries(String.self, in: Table.memberships, prefix: AlbumsKeys.membershipPrefix(email), limit: .max)
                .contains { try model.value(String.self, at: AlbumsKeys.member($0.value, email: other), in: Table.members) != nil }
        }
    }

    /// A page of the group's live photos, newest first.
    public func photos(of groupId: String, limit: Int?, cursor: String?) throws(ListQueryError) -> ItemPage<PhotoView> {
        try newestFirst(String.self, in: Table.photoList, of: groupId, limit: limit, cursor: cursor) { model, photoId in
            try model.value(PhotoView.self, at: AlbumsKeys.item(groupId, photoId), in: Table.photos)
        }
    }

    /// Live photo `photoId` of the group; nil when unknown, deleted, or another group's.
    public func photo(_ photoId: String, of groupId: String) throws(ReadModelError) -> PhotoView? {
        try engine.read(AlbumsProjections.groups) { model in
            try model.value(PhotoView.self, at: AlbumsKeys.item(groupId, photoId), in: Table.photos)
        }
    }

    /// A page of the group's chat messages, newest first.
    public func messages(of groupId: String, limit: Int?, cursor: String?) throws(ListQueryError) -> ItemPage<MessageView> {
        try newestFirst(MessageView.self, in: Table.messages, of: groupId, limit: limit, cursor: cursor) { _, message in message }
    }

    typealias Table = AlbumsGroupsProjection

    /// The current e-mail of account `userId`; nil for an unknown or erased account, or one
    /// whose e-mail reads empty.
    private static func email(of userId: String, _ model: ReadModelReader) throws -> String? {
        guard let email = try model.value(AlbumsAccount.self, at: userId, in: Table.accounts)?.email, !email.isEmpty else { return nil }
        return email
    }

    /// Up to `limit` entries of `table` under the group after `cursor` (newest first), each
    /// resolved by `resolve` in the same snapshot; one that resolves to nothing is skipped (none
    /// does: lists and items change in the same transaction).
    private func newestFirst<Value: ReadModelValue, Item: Sendable & Equatable>(
        _ type: Value.Type, in table: String, of groupId: String, limit: Int?, cursor: String?,
        resolve: (ReadModelReader, Value) throws -> Item?
    ) throws(ListQueryError) -> ItemPage<Item> {
        let prefix = AlbumsKeys.groupPrefix(groupId)
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            return try engine.read(AlbumsProjections.groups) { model in
                let page = try model.page(Value.self, in: table, prefix: prefix, request)
                return ItemPage(items: try page.entries.compactMap { try resolve(model, $0.value) }, next: page.next)
            }
        } catch {
            throw .readModel(error)
        }
    }
}
