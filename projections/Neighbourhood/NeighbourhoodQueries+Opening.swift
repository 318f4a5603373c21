import EventSourcing

extension NeighbourhoodQueries {
    // `neighbourhood.reports` keeps a report's title, description and author's name, and a
    // reply's author's name and message, as the log stores them (sealed, ADR 0009): a build opens
    // none of them, and an erased author's texts read empty and their name "Deleted user" from
    // the moment their key is gone. Every answer opens what it shows, here.

    /// The report with its author's name, title and description opened.
    func opened(_ report: StoredReport) throws(ReadModelError) -> StoredReport {
        var opened = report
        let author = report.author.userId
        opened.author = try self.opened(report.author)
        opened.title = try openedTitle(report.title, of: author)
        opened.description = try engine.opened(report.description, of: author, erased: "", what: "a report's description")
        return opened
    }

    /// A report's title as its tables keep it, opened with its author's key.
    func openedTitle(_ stored: String, of author: String) throws(ReadModelError) -> String {
        try engine.opened(stored, of: author, erased: "", what: "a report's title")
    }

    /// An author, a replier, with their name opened.
    func opened(_ person: NeighbourView) throws(ReadModelError) -> NeighbourView {
        NeighbourView(
            userId: person.userId,
            displayName: try engine.opened(person.displayName, of: person.userId, erased: PersonalDataSeal.deletedUser, what: "a neighbour's name"))
    }

    /// The reply with its author's name and message opened.
    func opened(_ reply: ReplyView) throws(ReadModelError) -> ReplyView {
        var opened = reply
        opened.author = try self.opened(reply.author)
        opened.message = try engine.opened(reply.message, of: reply.author.userId, erased: "", what: "a reply's message")
        return opened
    }
}
