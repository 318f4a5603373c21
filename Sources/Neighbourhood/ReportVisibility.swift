/// Who may see a report: the one rule the decider and the read models share.
///
/// Users of the report's neighbourhood see it; so does its author wherever they live now, so
/// that someone who moved can still read, answer and delete what they posted. A report stays
/// in the neighbourhood it was posted in.
public enum ReportVisibility {
    /// Whether `userId`, whose neighbourhood is now `neighbourhood` (nil: no postcode), may see
    /// a report posted in `reportNeighbourhood` by `authorId`.
    public static func canSee(
        reportNeighbourhood: String, authorId: String, userId: String, neighbourhood: String?
    ) -> Bool {
        authorId == userId || reportNeighbourhood == neighbourhood
    }
}
