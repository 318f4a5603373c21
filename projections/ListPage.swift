/// SPEC's paging, the same for every list: `limit` from 1 to 500 (50 when absent) and an opaque
/// cursor (`PageCursor`).
public enum ListPage {
    /// Items a page may hold.
    public static let itemsPerPage = 1...500
    /// Items on a page when the client names no limit.
    public static let itemsPerPageDefault = 50

    /// Checks `limit` and turns `cursor` into the key to page after (nil: from the start); a
    /// cursor must be one issued for the list whose keys start with `prefix`.
    static func start(limit: Int, cursor: String?, prefix: String) throws(ListQueryError) -> String? {
        guard itemsPerPage.contains(limit) else { throw .limitOutOfRange(limit, allowed: itemsPerPage) }
        guard let cursor else { return nil }
        guard let key = PageCursor.key(of: cursor, prefix: prefix) else { throw .malformedCursor }
        return key
    }
}
