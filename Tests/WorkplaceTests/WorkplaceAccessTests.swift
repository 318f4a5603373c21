import EventSourcing
import Testing
@testable import Workplace

/// Who sees what: outsiders and pending users nothing but their own request; employees their
/// own reviews and their own location's news; admins everything.
@Suite("Workplace access")
struct WorkplaceAccessTests {
    typealias A = WorkplaceAccess
    typealias F = Fixture

    let organisation = WorkplaceDecider.fold(F.organisation).organisations[F.acme]!
    var ann: WorkplaceViewer { organisation.viewer(F.ann) }
    var bob: WorkplaceViewer { organisation.viewer(F.bob) }
    var cat: WorkplaceViewer { organisation.viewer(F.cat) }
    var dan: WorkplaceViewer { organisation.viewer(F.dan) }

    @Test func viewersStandAsTheStateSays() {
        #expect(ann.standing == .member(locationId: F.hq, admin: true) && ann.isAdmin && ann.isMember)
        #expect(bob.standing == .member(locationId: F.depot, admin: false) && !bob.isAdmin && bob.memberLocationId == F.depot)
        #expect(cat.standing == .pending(locationId: F.hq) && !cat.isMember && cat.memberLocationId == nil)
        #expect(dan.standing == .outsider && !dan.isMember)
    }

    @Test func onlyAcceptedMembersSeeTheOrganisationsInsides() {
        #expect(throws: WorkplaceError.notAMember) { try A.requireMember(cat) }
        #expect(throws: WorkplaceError.notAMember) { try A.requireMember(dan) }
        #expect(throws: Never.self) { try A.requireMember(bob) }
    }

    @Test func membersRequestsAndFormsAreForAdmins() {
        #expect(throws: Never.self) { try A.requireAdmin(ann) }
        #expect(throws: WorkplaceError.notAnAdmin) { try A.requireAdmin(bob) }
        #expect(throws: WorkplaceError.notAMember) { try A.requireAdmin(cat) }
        #expect(throws: WorkplaceError.notAMember) { try A.requireAdmin(dan) }
    }

    @Test func employeesSeeOnlyTheirOwnReviews() throws {
        #expect(A.maySeeReviews(of: F.bob, bob) && !A.maySeeReviews(of: F.ann, bob))
        #expect(A.maySeeReviews(of: F.bob, ann) && A.maySeeReviews(of: F.ann, ann))
        #expect(!A.maySeeReviews(of: F.cat, cat))
        #expect(try A.reviewScope(requested: nil, bob) == .employee(F.bob))
        #expect(try A.reviewScope(requested: F.bob, bob) == .employee(F.bob))
        #expect(throws: WorkplaceError.notAnAdmin) { try A.reviewScope(requested: F.ann, bob) }
        #expect(try A.reviewScope(requested: nil, ann) == .all)
        #expect(try A.reviewScope(requested: F.bob, ann) == .employee(F.bob))
        #expect(throws: WorkplaceError.notAMember) { try A.reviewScope(requested: F.cat, cat) }
        #expect(throws: WorkplaceError.reviewNotFound) { try A.requireReview(of: F.ann, bob) }
        #expect(throws: Never.self) { try A.requireReview(of: F.bob, bob) }
        #expect(throws: WorkplaceError.notAMember) { try A.requireReview(of: F.dan, dan) }
        #expect(WorkplaceError.reviewNotFound.kind == .notFound && WorkplaceError.reviewNotFound.code == "review_not_found")
    }

    @Test func employeesSeeOnlyTheirLocationsNews() throws {
        #expect(A.maySeeNews(at: F.depot, bob) && !A.maySeeNews(at: F.hq, bob))
        #expect(A.maySeeNews(at: F.depot, ann) && A.maySeeNews(at: F.hq, ann))
        // A pending user asked for the hq but is not there yet.
        #expect(!A.maySeeNews(at: F.hq, cat) && !A.maySeeNews(at: F.hq, dan))
        #expect(try A.newsScope(requested: nil, bob) == .location(F.depot))
        #expect(try A.newsScope(requested: F.depot, bob) == .location(F.depot))
        #expect(throws: WorkplaceError.notAnAdmin) { try A.newsScope(requested: F.hq, bob) }
        #expect(try A.newsScope(requested: nil, ann) == .all)
        #expect(try A.newsScope(requested: F.depot, ann) == .location(F.depot))
        #expect(throws: WorkplaceError.notAMember) { try A.newsScope(requested: F.hq, cat) }
    }

    @Test func aMovedEmployeeSeesTheNewLocationsNews() throws {
        let moved = WorkplaceDecider.fold(F.organisation + [F.changed(F.bob, at: F.hq, admin: false)]).organisations[F.acme]!
        #expect(try A.newsScope(requested: nil, moved.viewer(F.bob)) == .location(F.hq))
        #expect(!A.maySeeNews(at: F.depot, moved.viewer(F.bob)))
    }
}
