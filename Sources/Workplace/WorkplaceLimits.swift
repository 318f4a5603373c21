/// The bounds the workplace decider enforces, so that an organisation's state (folded for every
/// command) and one event's size stay bounded. Reviews and news are not counted: they are kept
/// in the state only as ids and are read through paged read models.
public enum WorkplaceLimits {
    /// An organisation's name, in characters after trimming.
    public static let organisationNameCharacters = 1...100
    /// A location's name, in characters after trimming.
    public static let locationNameCharacters = 1...100
    /// A member's name, in characters after trimming.
    public static let memberNameCharacters = 1...100
    /// An employee number, in characters after trimming.
    public static let employeeNumberCharacters = 1...40
    /// A form's name, in characters after trimming.
    public static let formNameCharacters = 1...100
    /// A question's text, in characters after trimming.
    public static let questionCharacters = 1...500
    /// A text answer, in characters after trimming.
    public static let answerTextCharacters = 1...5_000
    /// A review's remark, in characters after trimming (empty means none).
    public static let remarkCharacters = 0...5_000
    /// A news item's title, in characters after trimming.
    public static let newsTitleCharacters = 1...200
    /// A news item's text, in characters after trimming.
    public static let newsTextCharacters = 1...20_000
    /// A rating answer.
    public static let rating = 1...5
    /// Locations of one organisation.
    public static let locationsPerOrganisationMax = 100
    /// Forms of one organisation, deleted ones not counted.
    public static let formsPerOrganisationMax = 100
    /// Questions of one form.
    public static let questionsPerFormMax = 50
    /// Members and pending requests of one organisation together.
    public static let membersPerOrganisationMax = 5_000
}

/// Which count limit an organisation reached.
public enum WorkplaceLimit: String, Sendable, Equatable {
    /// `WorkplaceLimits.locationsPerOrganisationMax`.
    case locations
    /// `WorkplaceLimits.formsPerOrganisationMax`.
    case forms
    /// `WorkplaceLimits.questionsPerFormMax`.
    case questions
    /// `WorkplaceLimits.membersPerOrganisationMax`.
    case members

    /// The limit's value.
    public var maximum: Int {
        switch self {
        case .locations: WorkplaceLimits.locationsPerOrganisationMax
        case .forms: WorkplaceLimits.formsPerOrganisationMax
        case .questions: WorkplaceLimits.questionsPerFormMax
        case .members: WorkplaceLimits.membersPerOrganisationMax
        }
    }
}
