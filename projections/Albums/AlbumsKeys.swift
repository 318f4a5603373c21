import EventSourcing

/// Keys of the albums read model, built for its prefix scans: `<group>/<user>` lists a group's
/// members and `<user>/<group>` a user's groups; `<group>/<address>` a group's pending
/// invitations and `<address>/<group>` an address's; `<group>/<inverted position>` its photos or
/// messages newest first.
///
/// The inverted position and the escaping of ids are `ReadModelKeys`', shared by every app.
enum AlbumsKeys {
    /// Bytes of an address as a key component at most. Addresses are client input: one of 254
    /// characters, or one full of escaped `/`, would not fit LMDB's 511-byte keys beside a
    /// group id, and a put that cannot store its key fails the batch. Longer ones are keyed by
    /// their SHA-256 instead (`#<hex>`), which cannot be another address's key: it holds no `@`.
    static let addressBytesMax = 200

    /// `<group>` in the `groups` table.
    static func group(_ groupId: String) -> String {
        ReadModelKeys.component(groupId)
    }

    /// Every key of one group's rows starts with this.
    static func groupPrefix(_ groupId: String) -> String {
        ReadModelKeys.component(groupId) + "/"
    }

    /// `<group>/<id>`: a photo by id, or a member by user id.
    static func item(_ groupId: String, _ id: String) -> String {
        groupPrefix(groupId) + ReadModelKeys.component(id)
    }

    /// Every key of one user's groups starts with this.
    static func userPrefix(_ userId: String) -> String {
        ReadModelKeys.component(userId) + "/"
    }

    /// `<user>/<group>`: one group of a member.
    static func membership(_ userId: String, groupId: String) -> String {
        userPrefix(userId) + ReadModelKeys.component(groupId)
    }

    /// `<group>/<address>`: a pending invitation.
    static func invitation(_ groupId: String, email: String) -> String {
        groupPrefix(groupId) + address(email)
    }

    /// Every key of one address's pending invitations starts with this.
    static func addressPrefix(_ email: String) -> String {
        address(email) + "/"
    }

    /// `<address>/<group>`: one group inviting an address.
    static func invited(_ email: String, groupId: String) -> String {
        addressPrefix(email) + ReadModelKeys.component(groupId)
    }

    /// An address as one key component: escaped as an id, or `#<SHA-256 hex>` when that is
    /// longer than `addressBytesMax` bytes.
    static func address(_ email: String) -> String {
        let component = ReadModelKeys.component(email)
        guard component.utf8.count > addressBytesMax else { return component }
        return "#" + SHA256Hex.digest(email)
    }
}
