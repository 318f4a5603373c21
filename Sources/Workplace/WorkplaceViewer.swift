/// A user as seen by one organisation: what `WorkplaceAccess` decides on. The API builds it from
/// the organisation read model's membership lookup; the decider from its state.
public struct WorkplaceViewer: Sendable, Equatable {
    /// Where a user stands in an organisation.
    public enum Standing: Sendable, Equatable {
        /// Neither a member nor asking to be one.
        case outsider
        /// Asked to join at `locationId`; no admin has answered yet.
        case pending(locationId: String)
        /// An accepted member at `locationId`, an admin or not.
        case member(locationId: String, admin: Bool)
    }

    /// The user.
    public var userId: String
    /// Where they stand.
    public var standing: Standing

    /// `userId` standing as `standing`.
    public init(userId: String, standing: Standing) {
        self.userId = userId
        self.standing = standing
    }

    /// Whether the user is an accepted member.
    public var isMember: Bool {
        if case .member = standing { true } else { false }
    }

    /// Whether the user is an accepted member and an admin.
    public var isAdmin: Bool {
        if case .member(_, let admin) = standing { admin } else { false }
    }

    /// An accepted member's location; nil for anyone else.
    public var memberLocationId: String? {
        if case .member(let locationId, _) = standing { locationId } else { nil }
    }
}
