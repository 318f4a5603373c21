/// The bounds the neighbourhood decider enforces. A report's state and the work one event causes
/// in the read models stay bounded: a reply fans out to at most `followersPerReportMax`
/// notifications, and deleting a report removes at most `repliesPerReportMax` replies and
/// `repliesPerReportMax × followersPerReportMax` notifications.
public enum NeighbourhoodLimits {
    /// A report's title, in characters after trimming.
    public static let titleCharacters = 1...120
    /// A report's description, in characters after trimming.
    public static let descriptionCharacters = 1...5_000
    /// A reply's message, in characters after trimming.
    public static let replyCharacters = 1...2_000
    /// WGS 84 latitude, in degrees.
    public static let latitudeDegrees = -90.0...90.0
    /// WGS 84 longitude, in degrees.
    public static let longitudeDegrees = -180.0...180.0
    /// Replies to one report. A postcode area is a street or two: a thread longer than this is
    /// better continued in a new report than kept growing without end.
    public static let repliesPerReportMax = 200
    /// Followers of one report, its author included; bounds a reply's notification fan-out.
    public static let followersPerReportMax = 200
}

/// Which count limit a report reached.
public enum NeighbourhoodLimit: String, Sendable, Equatable {
    /// `NeighbourhoodLimits.repliesPerReportMax`.
    case replies
    /// `NeighbourhoodLimits.followersPerReportMax`.
    case followers

    /// The limit's value.
    public var maximum: Int {
        switch self {
        case .replies: NeighbourhoodLimits.repliesPerReportMax
        case .followers: NeighbourhoodLimits.followersPerReportMax
        }
    }
}
