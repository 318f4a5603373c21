import EventSourcing

extension WorkplaceQueries {
    // `workplace.organisations` keeps members' and join requests' names and employee numbers, and
    // news items' authors, titles and texts, as the log stores them (sealed, ADR 0009): a build
    // opens none of them, and an erased user's read as the log then reads them ("Deleted user",
    // empty) from the moment their key is gone. Every answer opens what it shows, here.

    /// The member with their name and employee number opened.
    func opened(_ member: OrganisationMember) throws(ReadModelError) -> OrganisationMember {
        var opened = member
        opened.name = try name(member.name, of: member.userId)
        if let number = member.employeeNumber { opened.employeeNumber = try employeeNumber(number, of: member.userId) }
        return opened
    }

    /// The request with the name and employee number it gave opened.
    func opened(_ request: JoinRequestView) throws(ReadModelError) -> JoinRequestView {
        var opened = request
        opened.name = try name(request.name, of: request.userId)
        opened.employeeNumber = try employeeNumber(request.employeeNumber, of: request.userId)
        return opened
    }

    /// The news item with its author's name, its title and its text opened.
    func opened(_ item: NewsItemView) throws(ReadModelError) -> NewsItemView {
        var opened = item
        let author = item.author.userId
        opened.author.name = try name(item.author.name, of: author)
        opened.title = try engine.opened(item.title, of: author, erased: "", what: "a news item's title")
        opened.text = try engine.opened(item.text, of: author, erased: "", what: "a news item's text")
        return opened
    }

    private func name(_ stored: String, of userId: String) throws(ReadModelError) -> String {
        try engine.opened(stored, of: userId, erased: PersonalDataSeal.deletedUser, what: "a member's name")
    }

    private func employeeNumber(_ stored: String, of userId: String) throws(ReadModelError) -> String {
        try engine.opened(stored, of: userId, erased: "", what: "an employee number")
    }
}
