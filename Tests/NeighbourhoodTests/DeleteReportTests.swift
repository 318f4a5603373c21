import EventSourcing
import Testing
@testable import Neighbourhood

/// Deleting a report: its author only, once.
@Suite("Neighbourhood deleting")
struct DeleteReportTests {
    typealias D = NeighbourhoodDecider
    let delete = NeighbourhoodCommand.deleteReport(reportId: Fixture.report, neighbourhood: Fixture.canal)

    @Test func theAuthorDeletesTheirReport() throws {
        #expect(try D.given(Fixture.annsReport).when(delete, Fixture.by(Fixture.ann)).get() == [Fixture.deleted()])
        #expect(D.fold(Fixture.annsReport + [Fixture.deleted()]).reports[Fixture.report]?.isDeleted == true)
    }

    @Test func aNeighbourWhoIsNotTheAuthorIsForbidden() {
        let failure = D.given(Fixture.annsReport).when(delete, Fixture.by(Fixture.bob)).failure
        #expect(failure == .notTheAuthor && failure?.kind == .forbidden && failure?.code == "not_the_author")
    }

    @Test func anAuthorWhoMovedOrHasNoPostcodeStillDeletes() throws {
        for neighbourhood in [Fixture.harbour, nil] {
            let moved = NeighbourhoodCommand.deleteReport(reportId: Fixture.report, neighbourhood: neighbourhood)
            #expect(try D.given(Fixture.annsReport).when(moved, Fixture.by(Fixture.ann)).get() == [Fixture.deleted()])
        }
    }

    @Test func aDeletedReportCannotBeDeletedAgain() {
        #expect(D.given(Fixture.annsReport + [Fixture.deleted()]).when(delete, Fixture.by(Fixture.ann)).failure == .reportNotFound)
    }
}
