import Accounts
import Albums
import EventLog
import EventSourcing

/// Every live group of the albums app with its members, pending invitations, photos and
/// messages, and the accounts its members are.
///
/// Membership belongs to user ids (SPEC §2 albums): the creator and every account that claimed
/// an invitation (`invitationClaimed`). A pending invitation is a row of its own, shown as the
/// address alone, and is indexed by address so that the account verifying that address finds
/// what to claim. The projection also folds the account events that say which account holds
/// which address, whether verified, and under which name, so a query joins a member to their
/// account at the same snapshot, and so an erased account's memberships go with it.
///
/// Every event does a bounded number of key writes and decodes at most one stored value (a
/// group's small row, a photo being deleted, an account): a group of 500 members and 10,000
/// photos costs an invitation or a photo what an empty group does. Only deleting a group reads
/// all its rows, once, to remove them, and erasing an account reads its groups.
public struct AlbumsGroupsProjection: Projection {
    /// The stable name.
    public var name: String { "albums.groups" }
    /// Version 3: photos' descriptions and adders' names and messages' texts and authors' names
    /// as the log stores them (sealed), opened when read, so an erasure's key destruction is what
    /// erases them (ADR 0018; `messagesByAuthor` is gone). Version 2: members by user id and
    /// invitations pending until claimed (version 1: members by address).
    public var version: Int { 3 }
    /// Its domain's events (`AlbumsProjectionInput`), and the accounts' that move addresses and names.
    public var reads: [any DecodableDomainEvent.Type]? { [AlbumsProjectionInput.self, AccountEvent.self] }
    /// `groups`: `<group>` → `StoredGroup` (live groups only);
    /// `members`: `<group>/<user>` → the user id;
    /// `memberships`: `<user>/<group>` → groupId;
    /// `invitations`: `<group>/<address>` → the address (pending ones only);
    /// `invited`: `<address>/<group>` → groupId (pending ones only);
    /// `photos`: `<group>/<photo>` → `PhotoView` (live photos only; description and name sealed);
    /// `photoList`: `<group>/<inverted position>` → photoId;
    /// `messages`: `<group>/<inverted position>` → `MessageView` (text and name sealed);
    /// `accounts`: `<user>` → `AlbumsAccount` (current e-mail, display name, verified);
    /// `accountEmails`: `<address>` → the user id whose current e-mail it is;
    /// `photosByAdder`: the photos an erasure takes out of their groups (`+Erasure`).
    public var tables: [String] {
        [Self.groups, Self.members, Self.memberships, Self.invitations, Self.invited, Self.photos, Self.photoList, Self.messages,
         Self.accounts, Self.accountEmails, Self.photosByAdder]
    }

    static let groups = "groups"
    static let members = "members"
    static let memberships = "memberships"
    static let invitations = "invitations"
    static let invited = "invited"
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
        if let albums = try event.decoded(as: AlbumsProjectionInput.self)?.event {
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
            try addMember(p.ownerId, to: p.groupId, model)
        case .memberInvited(let p):
            try addInvitation(p.email, to: p.groupId, model)
        case .invitationClaimed(let p):
            try removeInvitation(p.email, from: p.groupId, model)
            try addMember(p.userId, to: p.groupId, model)
        case .memberLeft(let p):
            // Before claims, an invited address left as an address: its invitation goes too.
            try removeInvitation(p.email, from: p.groupId, model)
            try removeMember(p.userId, from: p.groupId, model)
        case .photoAdded(let p):
            let photo = PhotoView(
                photoId: p.photoId, blobId: p.blobId, description: p.description, addedBy: p.addedBy, addedByName: p.addedByName,
                addedAt: p.addedAt, position: position)
            try model.put(photo, at: AlbumsKeys.item(p.groupId, p.photoId), in: Self.photos)
            try model.put(p.photoId, at: ReadModelKeys.newestFirst(AlbumsKeys.groupPrefix(p.groupId), position), in: Self.photoList)
            try indexPhoto(at: AlbumsKeys.item(p.groupId, p.photoId), addedBy: p.addedBy, model)
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

    /// Adds account `userId` to the group's members and counts it; one already a member adds
    /// nothing.
    func addMember(_ userId: String, to groupId: String, _ model: ReadModelWriter) throws {
        guard var group = try model.value(StoredGroup.self, at: AlbumsKeys.group(groupId), in: Self.groups) else { return }
        guard try model.insert(userId, at: AlbumsKeys.item(groupId, userId), in: Self.members) else { return }
        try model.put(groupId, at: AlbumsKeys.membership(userId, groupId: groupId), in: Self.memberships)
        group.memberCount += 1
        try model.put(group, at: AlbumsKeys.group(groupId), in: Self.groups)
    }

    /// Removes account `userId` from the group's members; nothing when it is not one.
    func removeMember(_ userId: String, from groupId: String, _ model: ReadModelWriter) throws {
        let member = AlbumsKeys.item(groupId, userId)
        guard try model.value(String.self, at: member, in: Self.members) != nil else { return }
        try model.delete(member, in: Self.members)
        try model.delete(AlbumsKeys.membership(userId, groupId: groupId), in: Self.memberships)
        try model.update(StoredGroup.self, at: AlbumsKeys.group(groupId), in: Self.groups) { $0.memberCount -= 1 }
    }

    /// Records a pending invitation of `email` and counts it; an address pending already, or one
    /// erased (read as empty: no account can hold it), adds nothing.
    private func addInvitation(_ email: String, to groupId: String, _ model: ReadModelWriter) throws {
        guard !email.isEmpty, var group = try model.value(StoredGroup.self, at: AlbumsKeys.group(groupId), in: Self.groups) else { return }
        guard try model.insert(email, at: AlbumsKeys.invitation(groupId, email: email), in: Self.invitations) else { return }
        try model.put(groupId, at: AlbumsKeys.invited(email, groupId: groupId), in: Self.invited)
        group.memberCount += 1
        try model.put(group, at: AlbumsKeys.group(groupId), in: Self.groups)
    }

    /// Removes the pending invitation of `email`; nothing when there is none.
    func removeInvitation(_ email: String, from groupId: String, _ model: ReadModelWriter) throws {
        let invitation = AlbumsKeys.invitation(groupId, email: email)
        guard !email.isEmpty, try model.value(String.self, at: invitation, in: Self.invitations) != nil else { return }
        try model.delete(invitation, in: Self.invitations)
        try model.delete(AlbumsKeys.invited(email, groupId: groupId), in: Self.invited)
        try model.update(StoredGroup.self, at: AlbumsKeys.group(groupId), in: Self.groups) { $0.memberCount -= 1 }
    }

    /// Removes the group and every row of it: members (and their membership rows), pending
    /// invitations (and their addresses' rows), photos and messages.
    private func deleteGroup(_ groupId: String, _ model: ReadModelWriter) throws {
        guard try model.value(StoredGroup.self, at: AlbumsKeys.group(groupId), in: Self.groups) != nil else { return }
        try model.delete(AlbumsKeys.group(groupId), in: Self.groups)
        let prefix = AlbumsKeys.groupPrefix(groupId)
        for member in try model.entries(String.self, in: Self.members, prefix: prefix) {
            try model.delete(member.key, in: Self.members)
            try model.delete(AlbumsKeys.membership(member.value, groupId: groupId), in: Self.memberships)
        }
        for invitation in try model.entries(String.self, in: Self.invitations, prefix: prefix) {
            try model.delete(invitation.key, in: Self.invitations)
            try model.delete(AlbumsKeys.invited(invitation.value, groupId: groupId), in: Self.invited)
        }
        for table in [Self.photos, Self.photoList, Self.messages] {
            for key in try model.keys(in: table, prefix: prefix) { try model.delete(key, in: table) }
        }
    }
}
