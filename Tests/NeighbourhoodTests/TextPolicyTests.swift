import EventSourcing
import Testing
@testable import Neighbourhood

/// Report titles, descriptions and replies follow the one text policy: a title is a name (no
/// controls, no line breaks), a description or a reply is free text (line breaks and tabs, no
/// other controls); a bidi override is refused in all of them.
@Suite("Neighbourhood text policy")
struct TextPolicyTests {
    typealias D = NeighbourhoodDecider
    static let nameProblem = "must not contain control characters or line breaks"
    static let freeTextProblem = "must not contain control characters other than line breaks and tabs"
    /// NUL, ESC, BEL and the right-to-left override.
    static let badTexts = ["Bike\u{0}stolen", "\u{1B}]8;;http://evil\u{7}Bike", "Bike\u{7}", "Bike \u{202E}neleots"]

    @Test(arguments: badTexts)
    func aTitleWithAControlCharacterIsRefused(title: String) {
        #expect(D.given([]).when(Fixture.post(title: title), Fixture.by(Fixture.ann)).failure
            == .validationFailed([FieldError("title", Self.nameProblem)]))
    }

    @Test(arguments: badTexts)
    func aDescriptionWithAControlCharacterIsRefused(description: String) {
        #expect(D.given([]).when(Fixture.post(description: description), Fixture.by(Fixture.ann)).failure
            == .validationFailed([FieldError("description", Self.freeTextProblem)]))
    }

    @Test(arguments: badTexts)
    func aReplyWithAControlCharacterIsRefused(message: String) {
        let reply = NeighbourhoodCommand.postReply(reportId: Fixture.report, replyId: Fixture.reply, message: message,
                                                   displayName: "Bob", neighbourhood: Fixture.canal)
        #expect(D.given([Fixture.posted(), Fixture.followed(Fixture.ann)]).when(reply, Fixture.by(Fixture.bob)).failure
            == .validationFailed([FieldError("message", Self.freeTextProblem)]))
    }

    @Test func aTitleIsOneLineWhileFreeTextKeepsLineBreaksAndTabs() throws {
        #expect(D.given([]).when(Fixture.post(title: "Bike\nstolen"), Fixture.by(Fixture.ann)).failure
            == .validationFailed([FieldError("title", Self.nameProblem)]))
        let events = try D.given([]).when(Fixture.post(description: "Outside number 12,\r\nlast night.\n\tBlue bike."),
                                          Fixture.by(Fixture.ann)).get()
        guard case .reportPosted(let posted)? = events.first else { Issue.record("no report posted"); return }
        #expect(posted.description == "Outside number 12,\nlast night.\n\tBlue bike.", "Windows line ends are stored as \\n")
    }
}
