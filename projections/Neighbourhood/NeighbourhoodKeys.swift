import Neighbourhood

/// Keys of the neighbourhood read models, built for the queries' prefix scans: a later
/// position sorts first, so `<neighbourhood>/<inverted position>` lists a neighbourhood's
/// reports newest first as one forward scan.
///
/// The inverted position and the escaping of ids are `ReadModelKeys`', shared by every app so
/// that all keys and cursors follow one convention.
enum NeighbourhoodKeys {
    /// `<report>` in the `reports` table.
    static func report(_ reportId: String) -> String {
        ReadModelKeys.component(reportId)
    }

    /// Every key of one report's replies starts with this.
    static func reportPrefix(_ reportId: String) -> String {
        ReadModelKeys.component(reportId) + "/"
    }

    /// Every key of one user's lists (reports, follows, notifications) starts with this.
    static func userPrefix(_ userId: String) -> String {
        ReadModelKeys.component(userId) + "/"
    }

    /// Every key of one neighbourhood's list starts with this.
    static func neighbourhoodPrefix(_ neighbourhood: String) -> String {
        ReadModelKeys.component(neighbourhood) + "/"
    }

    /// Every key of one neighbourhood's list of one category starts with this.
    static func categoryPrefix(_ neighbourhood: String, _ category: ReportCategory) -> String {
        neighbourhoodPrefix(neighbourhood) + category.rawValue + "/"
    }
}
