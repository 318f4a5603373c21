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

    /// The live groups `userId` is a member of, by name (case-insensitively), then id; none for
    /// an unknown or erased account.
    public func groups(ofUser userId: String) throws(ReadModelError) -> [GroupSummary] {
        let groups = try engine.read(AlbumsProjections.groups) { model -> [GroupSummary] in
            try model.entries(String.self, in: Table.memberships, prefix: AlbumsKeys.userPrefix(userId), limit: .max)
                .compactMap { try model.value(StoredGroup.self, at: AlbumsKeys.group($0.value), in: Table.groups)?.summary }
        }
        return groups.map { (FoldedName.folded($0.name), $0) }.sorted { ($0.0, $0.1.groupId) < ($1.0, $1.1.groupId) }.map(\.1)
    }

    /// Group `groupId` with its members, each joined to their account now, and its pending
    /// invitations as addresses alone (no name or id: inviting reveals nothing about who is
    /// registered); nil when unknown or deleted. The decider bounds both
    /// (`AlbumsLimits.membersPerGroupMax`), so reading them all is bounded.
    public func group(_ groupId: String) throws(ReadModelError) -> GroupView? {
        try engine.read(AlbumsProjections.groups) { model -> GroupView? in
            guard let group = try model.value(StoredGroup.self, at: AlbumsKeys.group(groupId), in: Table.groups) else { return nil }
            let prefix = AlbumsKeys.groupPrefix(groupId)
            let members = try model.entries(String.self, in: Table.members, prefix: prefix, limit: .max).compactMap { entry in
                let account = try model.value(AlbumsAccount.self, at: entry.value, in: Table.accounts)
                return account.map { GroupMemberView(email: $0.email, userId: entry.value, displayName: $0.displayName) }
            }
            let pending = try model.entries(String.self, in: Table.invitations, prefix: prefix, limit: .max)
                .map { GroupMemberView(email: $0.value, userId: nil, displayName: nil) }
            // Keys hold ids and escaped or hashed addresses, so their order is not the addresses'.
            let all = (members + pending).sorted { $0.email.utf8.lexicographicallyPrecedes($1.email.utf8) }
            return GroupView(groupId: group.groupId, name: group.name, ownerId: group.ownerId, createdAt: group.createdAt, members: all)
        }
    }

    /// Whether account `userId` is a member of live group `groupId`.
    public func isMember(_ userId: String, of groupId: String) throws(ReadModelError) -> Bool {
        try engine.read(AlbumsProjections.groups) { model in
            try model.value(String.self, at: AlbumsKeys.item(groupId, userId), in: Table.members) != nil
        }
    }

    /// Whether `userId` and `otherId` are members of one live group (who may see whose avatar).
    /// Reads `userId`'s groups, each with one lookup.
    public func shareAGroup(_ userId: String, _ otherId: String) throws(ReadModelError) -> Bool {
        try engine.read(AlbumsProjections.groups) { model in
            try model.entries(String.self, in: Table.memberships, prefix: AlbumsKeys.userPrefix(userId), limit: .max)
                .contains { try model.value(String.self, at: AlbumsKeys.item($0.value, otherId), in: Table.members) != nil }
        }
    }

    /// The live groups with a pending invitation of the normalised `email`, by id.
    public func groupsInviting(_ email: String) throws(ReadModelError) -> [String] {
        try engine.read(AlbumsProjections.groups) { model in
            try model.entries(String.self, in: Table.invited, prefix: AlbumsKeys.addressPrefix(email), limit: .max).map(\.value)
        }
    }

    /// The account whose current e-mail is the normalised `email` and is verified: the one its
    /// invitations are for. nil when no account has it, or its holder has not verified it.
    public func verifiedHolder(of email: String) throws(ReadModelError) -> String? {
        try engine.read(AlbumsProjections.groups) { model in
            guard !email.isEmpty, let userId = try model.value(String.self, at: AlbumsKeys.address(email), in: Table.accountEmails),
                  let account = try model.value(AlbumsAccount.self, at: userId, in: Table.accounts),
                  account.email == email, account.emailVerified
            else { return nil }
            return userId
        }
    }

    /// A page of the group's live photos, newest first.
    public func photos(of groupId: String, limit: Int?, cursor: String?) throws(ListQueryError) -> ItemPage<PhotoView> {
        let page = try newestFirst(String.self, in: Table.photoList, of: groupId, limit: limit, cursor: cursor) { model, photoId in
            try model.value(PhotoView.self, at: AlbumsKeys.item(groupId, photoId), in: Table.photos)
        }
        do {
            return ItemPage(items: try page.items.map(opened), next: page.next)
        } catch {
            throw .readModel(error)
        }
    }

    /// Live photo `photoId` of the group; nil when unknown, deleted, or another group's.
    public func photo(_ photoId: String, of groupId: String) throws(ReadModelError) -> PhotoView? {
        try engine.read(AlbumsProjections.groups) { model in
            try model.value(PhotoView.self, at: AlbumsKeys.item(groupId, photoId), in: Table.photos)
        }.map(opened)
    }

    /// A page of the group's chat messages, newest first.
    public func messages(of groupId: String, limit: Int?, cursor: String?) throws(ListQueryError) -> ItemPage<MessageView> {
        let page = try newestFirst(MessageView.self, in: Table.messages, of: groupId, limit: limit, cursor: cursor) { _, message in message }
        do {
            return ItemPage(items: try page.items.map(opened), next: page.next)
        } catch {
            throw .readModel(error)
        }
    }

    /// `photo` with its description and adder's name opened, as `albums.groups` keeps them sealed
    /// (ADR 0018): an erased adder's read empty and "Deleted user" from her key's destruction on.
    private func opened(_ photo: PhotoView) throws(ReadModelError) -> PhotoView {
        var opened = photo
        opened.description = try engine.opened(photo.description, of: photo.addedBy, erased: "", what: "a photo's description")
        opened.addedByName = try engine.opened(photo.addedByName, of: photo.addedBy, erased: PersonalDataSeal.deletedUser, what: "a photo's adder")
        return opened
    }

    /// `message` with its text and author's name opened, as `albums.groups` keeps them sealed.
    private func opened(_ message: MessageView) throws(ReadModelError) -> MessageView {
        var opened = message
        opened.text = try engine.opened(message.text, of: message.authorId, erased: "", what: "a message's text")
        opened.authorName = try engine.opened(message.authorName, of: message.authorId, erased: PersonalDataSeal.deletedUser, what: "a message's author")
        return opened
    }

    typealias Table = AlbumsGroupsProjection

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
