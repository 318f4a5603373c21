import EventSourcing
import Testing
@testable import Neighbourhood

/// Posting a report: the fields, the neighbourhood, the author's follow.
@Suite("Neighbourhood posting")
struct PostReportTests {
    typealias D = NeighbourhoodDecider

    @Test func aReportIsPostedInTheAuthorsNeighbourhoodAndFollowedByTheAuthor() throws {
        let events = try D.given([]).when(Fixture.post(title: "  Bike stolen \n"), Fixture.by(Fixture.ann)).get()
        #expect(events == [Fixture.posted(), Fixture.followed(Fixture.ann)])
        let state = D.fold(events)
        #expect(state.reports[Fixture.report]?.followers == [Fixture.ann])
        #expect(state.reports[Fixture.report]?.neighbourhood == Fixture.canal)
    }

    @Test func withoutAPostcodeThereIsNoNeighbourhoodToPostIn() {
        let failure = D.given([]).when(Fixture.post(in: nil, title: ""), Fixture.by(Fixture.ann)).failure
        #expect(failure == .noNeighbourhood)
        #expect(failure?.code == "no_neighbourhood" && failure?.kind == .conflict)
    }

    @Test func everyFieldProblemIsReportedAtOnce() {
        let post = Fixture.post(title: " ", description: String(repeating: "d", count: 5_001), category: "gossip",
                                latitude: 90.5, longitude: -180.01)
        #expect(D.given([]).when(post, Fixture.by(Fixture.ann)).failure == .validationFailed([
            FieldError("title", "must be 1 to 120 characters"),
            FieldError("description", "must be 1 to 5000 characters"),
            FieldError("category", "must be one of suspicious, attention, event, complaint, message"),
            FieldError("location.latitude", "must be from -90 to 90 degrees"),
            FieldError("location.longitude", "must be from -180 to 180 degrees"),
        ]))
    }

    @Test(arguments: [(String(repeating: "t", count: 120), true), (String(repeating: "t", count: 121), false), ("t", true)])
    func titlesAreOneToOneHundredTwentyCharacters(title: String, accepted: Bool) {
        let failure = D.given([]).when(Fixture.post(title: title), Fixture.by(Fixture.ann)).failure
        #expect((failure == nil) == accepted)
    }

    @Test(arguments: [(-90.0, -180.0), (90.0, 180.0), (0.0, 0.0)])
    func theEdgesOfTheGlobeAreOnIt(latitude: Double, longitude: Double) {
        let post = Fixture.post(latitude: latitude, longitude: longitude)
        #expect(D.given([]).when(post, Fixture.by(Fixture.ann)).failure == nil)
    }

    @Test func coordinatesMustBeFinite() {
        let post = Fixture.post(latitude: .nan, longitude: .infinity)
        #expect(D.given([]).when(post, Fixture.by(Fixture.ann)).failure?.fieldErrors.map(\.field)
            == ["location.latitude", "location.longitude"])
    }

    @Test(arguments: ReportCategory.allCases)
    func everyCategoryIsAccepted(category: ReportCategory) throws {
        let events = try D.given([]).when(Fixture.post(category: category.rawValue), Fixture.by(Fixture.ann)).get()
        guard case .reportPosted(let posted) = events.first else { Issue.record("no report"); return }
        #expect(posted.category == category)
    }

    @Test func categoriesAreSpelledExactly() {
        #expect(D.given([]).when(Fixture.post(category: "Event"), Fixture.by(Fixture.ann)).failure?.fieldErrors.map(\.field) == ["category"])
    }

    @Test func reportIdsAreNotReusedEvenAfterDeletion() {
        #expect(D.given(Fixture.annsReport).when(Fixture.post(), Fixture.by(Fixture.bob)).failure == .idTaken)
        #expect(D.given(Fixture.annsReport + [Fixture.deleted()]).when(Fixture.post(), Fixture.by(Fixture.ann)).failure == .idTaken)
    }
}
