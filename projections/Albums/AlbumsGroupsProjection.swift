import Accounts
import Albums
import EventLog
import EventSourcing

/// Every live group of the albums app with its members, photos and messages, and the accounts
/// its member addresses belong to now.
///
/// Membership follows e-mail addresses (SPEC §2 albums), so the projection folds the account
/// events that move addresses between accounts as well as the albums events: a member row
/// holds only the address, and a query joins it to the account holding it at the same snapshot.
/// That way an account registered after its invitation, or one changing its e-mail to an
/// invited address, is a member at once, and no account event rewrites any group.
///
/// Every event does a bounded number of key writes and decodes at most one stored value (a
/// group's small row, a photo being deleted, an account): a group of 500 members and 10,000
/// photos costs an invitation or a photo what an empty group does. Only deleting a group reads
/// all its rows, once, to remove them.
public struct AlbumsGroupsProjection: Projection {
    /// The stable name.
    public var name: String { "albums.groups" }
    /// Version 1.
    public var version: Int { 1 }
    /// Its domain's events, and the accounts' that move addresses and names.
    public var reads: [any DecodableDomainEvent.Type]? { [AlbumsEvent.self, AccountEvent.self] }
    /// `groups`: `<group>` → `StoredGroup` (live groups only);
    /// `members`: `<group>/<address>` → the address;
    /// `memberships`: `<address>/<group>` → groupId;
    /// `photos`: `<group>/<photo>` → `PhotoView` (live photos only);
    /// `photoList`: `<group>/<inverted position>` → photoId;
    /// `messages`: `<group>/<inverted position>` → `MessageView`;
    /// `accounts`: `<user>` → `AlbumsAccount` (current e-mail and display name);
    /// `accountEmails`: `<address>` → the user id whose current e-mail it is.
    public var tables: [String] {
        [Self.groups, Self.members, Self.memberships, Self.photos, Self.photoList, Self.messages, Self.accounts, Self.accountEmails]
    }

    static let groups = "groups"
    static let members = "members"
    static let memberships = "memberships"
    static let photos = "photos"
    static let photoList = "photoList"
    static let messages = "messages"
    static let accounts = "accounts"
    static let accountEmails = "accountEmails"

    /// A projection value; it holds no state.
    public init() {}

    /// Folds albums events and the account events that say which account holds which address
    /// and under what name; ignores other events. Events about something not stored (the
    /// deciders emit none) change nothing.
    public func apply(_ event: ProjectedEvent, to model: ReadModelWriter) throws {
        if let albums = try event.decoded(as: AlbumsEvent.self) {
            try applyAlbums(albums, at: event.position, model)
        } else if let account = try event.decoded(as: AccountEvent.self) {
            try applyAccount(account, model)
        }
    }

    private func applyAlbums(_ event: AlbumsEvent, at position: UInt64, _ model: ReadModelWriter) throws {
        switch event {
        case .groupCreated(let p):
            let group = StoredGroup(groupId: p.groupId, name: p.name, ownerId: p.ownerId, createdAt: p.createdAt, memberCount: 0)
            try model.put(group, at: AlbumsKeys.group(p.groupId), in: Self.groups)
            try addMember(p.ownerEmail, to: p.groupId, model)
        case .memberInvited(let p):
            try addMember(p.email, to: p.groupId, model)
        case .memberLeft(let p):
            try removeMember(p.email, from: p.groupId, model)
        case .photoAdded(let p):
            let photo = PhotoView(
                photoId: p.photoId, blobId: p.blobId, description: p.description, addedBy: p.addedBy, addedByName: p.addedByName,
                addedAt: p.addedAt, position: position)
            try model.put(photo, at: AlbumsKeys.item(p.groupId, p.photoId), in: Self.photos)
            try model.put(p.photoId, at: ReadModelKeys.newestFirst(AlbumsKeys.groupPrefix(p.groupId), position), in: Self.photoList)
        case .photoDeleted(let p):
            let key = AlbumsKeys.item(p.groupId, p.photoId)
            guard let photo = try model.value(PhotoView.self, at: key, in: Self.photos) else { return }
            try model.delete(key, in: Self.photos)
            try model.delete(ReadModelKeys.newestFirst(AlbumsKeys.groupPrefix(p.groupId), photo.position), in: Self.photoList)
        case .messagePosted(let p):
            let message = MessageView(messageId: p.messageId, text: p.text, authorId: p.authorId, authorName: p.authorName, postedAt: p.postedAt)
            try model.put(message, at: ReadModelKeys.newestFirst(AlbumsKeys.groupPrefix(p.groupId), position), in: Self.messages)
        case .groupDeleted(let p):
            try deleteGroup(p.groupId, model)
        }
    }

    /// Adds `email` to the group's members and counts it; an address already a member, or one
    /// erased (read as empty: no account can hold it), adds nothing.
    private func addMember(_ email: String, to groupId: String, _ model: ReadModelWriter) throws {
        guard !email.isEmpty, var group = try model.value(StoredGroup.self, at: AlbumsKeys.group(groupId), in: Self.groups) else { return }
        let key = AlbumsKeys.member(groupId, email: email)
        guard try model.insert(email, at: key, in: Self.members) else { return }
        try model.put(groupId, at: AlbumsKeys.membership(email, groupId: groupId), in: Self.memberships)
        group.memberCount += 1
        try model.put(group, at: AlbumsKeys.group(groupId), in: Self.groups)
    }

    /// Removes `email` from the group's members; nothing when it is not one.
    private func removeMember(_ email: String, from groupId: String, _ model: ReadModelWriter) throws {
        guard !email.isEmpty, try model.delete(AlbumsKeys.member(groupId, email: email), in: Self.members) else { return }
        try model.delete(AlbumsKeys.membership(email, groupId: groupId), in: Self.memberships)
        try model.update(StoredGroup.self, at: AlbumsKeys.group(groupId), in: Self.groups) { $0.memberCount -= 1 }
    }

    /// Removes the group and every row of it: members (and their addresses' membership rows),
    /// photos and messages.
    private func deleteGroup(_ groupId: String, _ model: ReadModelWriter) throws {
        guard try model.delete(AlbumsKeys.group(groupId), in: Self.groups) else { return }
        let prefix = AlbumsKeys.groupPrefix(groupId)
        for member in try model.entries(String.self, in: Self.members, prefix: prefix) {
            try model.delete(member.key, in: Self.members)
            try model.delete(AlbumsKeys.membership(member.value, groupId: groupId), in: Self.memberships)
        }
        for table in [Self.photos, Self.photoList, Self.messages] {
            for key in try model.keys(in: table, prefix: prefix) { try model.delete(key, in: table) }
        }
    }
}
