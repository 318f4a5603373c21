/// The bounds the albums decider enforces, so that a group's state (folded for every command)
/// and one event's size stay bounded.
public enum AlbumsLimits {
    /// A group's name, in characters after trimming.
    public static let groupNameCharacters = 1...100
    /// A photo's description, in characters after trimming.
    public static let photoDescriptionCharacters = 1...2_000
    /// A chat message, in characters after trimming.
    public static let messageCharacters = 1...4_000
    /// An e-mail address, in characters after trimming.
    public static let emailCharacters = 3...254
    /// Members (invited addresses) of one group.
    public static let membersPerGroupMax = 500
    /// Live photos of one group.
    public static let photosPerGroupMax = 10_000
}

/// Which count limit a group reached.
public enum AlbumsLimit: String, Sendable, Equatable {
    /// `AlbumsLimits.membersPerGroupMax`.
    case members
    /// `AlbumsLimits.photosPerGroupMax`.
    case photos

    /// The limit's value.
    public var maximum: Int {
        switch self {
        case .members: AlbumsLimits.membersPerGroupMax
        case .photos: AlbumsLimits.photosPerGroupMax
        }
    }
}
