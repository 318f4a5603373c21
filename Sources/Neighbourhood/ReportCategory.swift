/// What kind of report a neighbour posts. The raw values are the API's and the log's spelling.
public enum ReportCategory: String, Sendable, Equatable, Codable, CaseIterable {
    /// Something or someone looks suspicious.
    case suspicious
    /// Neighbours should pay attention to something (road works, a lost cat).
    case attention
    /// Something is happening in the neighbourhood.
    case event
    /// A complaint (noise, litter).
    case complaint
    /// Anything else neighbours want to say.
    case message

    /// Every category's name, for messages: `suspicious, attention, event, complaint, message`.
    public static var names: String { allCases.map(\.rawValue).joined(separator: ", ") }
}
