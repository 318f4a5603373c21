import EventSourcing
import Foundation

/// What happened in a photo group of the albums app: the storage format of the albums domain.
/// Payloads are written to the log as JSON and never rewritten; change them only by adding a
/// schema version.
///
/// Membership belongs to user ids (SPEC §2 albums): the creator, and every account that claimed
/// an invitation of an address it verified (`invitationClaimed`). An invitation names an e-mail
/// address and grants nothing until such a claim; once claimed, a later change of e-mail neither
/// loses the membership nor hands it to whoever takes the old address. Every event is
/// in the stream `group-<groupId>` and tagged `group:<groupId>`; creating and deleting a group
/// also carry its name's tag (`groupName:<ownerId>:<SHA-256 of the folded name>`), so that one
/// user never owns two live groups of one name.
public enum AlbumsEvent: CataloguedEvent {
    /// Every stored type name starts `albums.`.
    public static let domain = "albums"

    /// A user created a group and is its first member.
    case groupCreated(GroupCreated)
    /// A member invited an e-mail address; the invitation waits for a verified claim.
    case memberInvited(MemberInvited)
    /// An account that verified an invited address claimed the invitation: a member now.
    case invitationClaimed(InvitationClaimed)
    /// A member added a photo: an image blob they uploaded, with a description.
    case photoAdded(PhotoAdded)
    /// The member who added a photo deleted it.
    case photoDeleted(PhotoDeleted)
    /// A member posted a chat message.
    case messagePosted(MessagePosted)
    /// A member left.
    case memberLeft(MemberLeft)
    /// The last member left: the group and its photos are gone, their blobs collectable.
    case groupDeleted(GroupDeleted)

    /// Every payload type, for decoding by stored type name.
    public static let catalogue = EventPayloadCatalogue<AlbumsEvent>([
        GroupCreated.self, MemberInvited.self, PhotoAdded.self, PhotoDeleted.self, MessagePosted.self,
        MemberLeft.self, GroupDeleted.self, InvitationClaimed.self,
    ])

    /// The stream of a group, `group-<groupId>`.
    public static func streamID(group groupId: String) -> String { "group-\(groupId)" }
    /// The tag every event of a group carries, `group:<groupId>`.
    public static func groupTag(_ groupId: String) -> String { "group:\(groupId)" }
    /// The tag of an owner's group name, `groupName:<ownerId>:<SHA-256 of the folded name>`:
    /// creating appends only while no live group of the owner carries it.
    public static func groupNameTag(owner ownerId: String, name: String) -> String {
        "groupName:\(ownerId):\(FoldedName.digest(name))"
    }

    /// The case's payload: the one switch over the cases, as only a macro could derive it (swift-syntax's build breaks the 10-minute first build).
    public var eventPayload: any EventPayload<AlbumsEvent> {
        switch self {
        case .groupCreated(let p): p
        case .memberInvited(let p): p
        case .invitationClaimed(let p): p
        case .photoAdded(let p): p
        case .photoDeleted(let p): p
        case .messagePosted(let p): p
        case .memberLeft(let p): p
        case .groupDeleted(let p): p
        }
    }
}

/// What every albums payload says: its group.
public protocol AlbumsPayload: EventPayload<AlbumsEvent> {
    /// The group.
    var groupId: String { get }
    /// The tags after the group's: the things in the group the event is about (`photo:`,
    /// `message:`), so an operator's audit by their ids finds it, and the owner's name
    /// (`groupName:`) when creating or deleting.
    var entityTags: [String] { get }
}

extension AlbumsPayload {
    /// Events about the group as a whole name nothing inside it.
    public var entityTags: [String] { [] }
    /// `group-<groupId>`.
    public var streamID: String { AlbumsEvent.streamID(group: groupId) }
    /// `group:<id>`, then the entities'.
    public var tags: [String] { [AlbumsEvent.groupTag(groupId)] + entityTags }
}
