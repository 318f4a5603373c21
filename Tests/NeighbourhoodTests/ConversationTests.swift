import EventSourcing
import Testing
@testable import Neighbourhood

/// Replies and follows, and who may make them.
@Suite("Neighbourhood replies and follows")
struct ConversationTests {
    typealias D = NeighbourhoodDecider
    let report = Fixture.report

    func reply(_ message: String = "I saw it too", id: String = Fixture.reply, as userId: String = Fixture.bob) -> NeighbourhoodCommand {
        .postReply(reportId: report, replyId: id, message: message, displayName: Fixture.displayName(userId),
                   neighbourhood: Fixture.home(userId))
    }

    @Test func neighboursReplyWithTrimmedMessages() throws {
        let events = try D.given(Fixture.annsReport).when(reply(" I saw it too "), Fixture.by(Fixture.bob)).get()
        #expect(events == [Fixture.replied()])
    }

    @Test(arguments: ["", "  ", String(repeating: "m", count: 2_001)])
    func repliesAreOneToTwoThousandCharacters(message: String) {
        #expect(D.given(Fixture.annsReport).when(reply(message), Fixture.by(Fixture.bob)).failure
            == .validationFailed([FieldError("message", "must be 1 to 2000 characters")]))
    }

    @Test func usersOfAnotherNeighbourhoodCannotSeeTheReportAtAll() {
        let commands: [NeighbourhoodCommand] = [
            reply(as: Fixture.cat),
            .followReport(reportId: report, neighbourhood: Fixture.harbour),
            .unfollowReport(reportId: report, neighbourhood: Fixture.harbour),
            .deleteReport(reportId: report, neighbourhood: Fixture.harbour),
        ]
        for command in commands {
            let failure = D.given(Fixture.annsReport).when(command, Fixture.by(Fixture.cat)).failure
            #expect(failure == .reportNotFound && failure?.kind == .notFound)
        }
    }

    @Test func unknownAndDeletedReportsAreNotFound() {
        let follow = NeighbourhoodCommand.followReport(reportId: report, neighbourhood: Fixture.canal)
        #expect(D.given([]).when(follow, Fixture.by(Fixture.bob)).failure == .reportNotFound)
        #expect(D.given(Fixture.annsReport + [Fixture.deleted()]).when(follow, Fixture.by(Fixture.bob)).failure == .reportNotFound)
        #expect(D.given(Fixture.annsReport + [Fixture.deleted()]).when(reply(), Fixture.by(Fixture.bob)).failure == .reportNotFound)
    }

    @Test func withoutAPostcodeOnlyOnesOwnReportsCanBeReached() throws {
        let follow = NeighbourhoodCommand.followReport(reportId: report, neighbourhood: nil)
        // Known or unknown: the same answer, so a user without a neighbourhood learns no ids.
        #expect(D.given(Fixture.annsReport).when(follow, Fixture.by(Fixture.bob)).failure == .noNeighbourhood)
        #expect(D.given([]).when(follow, Fixture.by(Fixture.bob)).failure == .noNeighbourhood)
        let unfollow = NeighbourhoodCommand.unfollowReport(reportId: report, neighbourhood: nil)
        #expect(try D.given(Fixture.annsReport).when(unfollow, Fixture.by(Fixture.ann)).get() == [Fixture.unfollowed(Fixture.ann)])
    }

    @Test func anAuthorWhoMovedStillTakesPartInTheirReport() throws {
        let moved = NeighbourhoodCommand.postReply(
            reportId: report, replyId: Fixture.reply, message: "Found it", displayName: "Ann", neighbourhood: Fixture.harbour)
        let events = try D.given(Fixture.annsReport).when(moved, Fixture.by(Fixture.ann)).get()
        guard case .replyPosted(let reply) = events.first else { Issue.record("no reply"); return }
        #expect(reply.neighbourhood == Fixture.canal, "the reply belongs where the report is")
    }

    @Test func followingIsIdempotent() throws {
        let follow = NeighbourhoodCommand.followReport(reportId: report, neighbourhood: Fixture.canal)
        #expect(try D.given(Fixture.annsReport).when(follow, Fixture.by(Fixture.bob)).get() == [Fixture.followed(Fixture.bob)])
        #expect(try D.given(Fixture.annsReport + [Fixture.followed(Fixture.bob)]).when(follow, Fixture.by(Fixture.bob)).get().isEmpty)
        #expect(try D.given(Fixture.annsReport).when(follow, Fixture.by(Fixture.ann)).get().isEmpty, "authors follow already")
    }

    @Test func unfollowingIsIdempotentAndAuthorsMayUnfollowToo() throws {
        let unfollow = NeighbourhoodCommand.unfollowReport(reportId: report, neighbourhood: Fixture.canal)
        #expect(try D.given(Fixture.annsReport).when(unfollow, Fixture.by(Fixture.bob)).get().isEmpty)
        let following = Fixture.annsReport + [Fixture.followed(Fixture.bob)]
        #expect(try D.given(following).when(unfollow, Fixture.by(Fixture.bob)).get() == [Fixture.unfollowed(Fixture.bob)])
        #expect(try D.given(following).when(unfollow, Fixture.by(Fixture.ann)).get() == [Fixture.unfollowed(Fixture.ann)])
        #expect(D.fold(following + [Fixture.unfollowed(Fixture.bob)]).reports[report]?.followers == [Fixture.ann])
    }

    @Test func replyIdsAreUniquePerReport() {
        #expect(D.given(Fixture.annsReport + [Fixture.replied()]).when(reply(), Fixture.by(Fixture.bob)).failure == .idTaken)
    }

    @Test func aReportTakesAtMostSoManyReplies() {
        let full = Fixture.annsReport + (0..<NeighbourhoodLimits.repliesPerReportMax).map { Fixture.replied("reply-\($0)") }
        #expect(D.given(full).when(reply(), Fixture.by(Fixture.bob)).failure == .limitReached(.replies))
        #expect(D.given(full.dropLast()).when(reply(), Fixture.by(Fixture.bob)).failure == nil)
    }

    @Test func aReportHasAtMostSoManyFollowers() throws {
        let full = [Fixture.posted()] + (0..<NeighbourhoodLimits.followersPerReportMax).map { Fixture.followed("user-\($0)") }
        let follow = NeighbourhoodCommand.followReport(reportId: report, neighbourhood: Fixture.canal)
        #expect(D.given(full).when(follow, Fixture.by(Fixture.bob)).failure == .limitReached(.followers))
        #expect(D.given(full.dropLast()).when(follow, Fixture.by(Fixture.bob)).failure == nil)
        #expect(try D.given(full).when(follow, Fixture.by("user-0")).get().isEmpty, "a follower at the limit follows already")
    }
}
