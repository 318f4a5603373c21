import EventLog
import Foundation
import Testing
import Workplace
@testable import Projections

/// The public directory: by name ignoring case, then id; searched by a case-insensitive
/// substring; paged; each request bounded however few names match.
@Suite("Workplace read models: the directory", .timeLimit(.minutes(3)))
struct DirectoryTests {
    private typealias H = WorkplaceHistory

    @Test func organisationsAreListedByNameIgnoringCaseThenIdAndPaged() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        let names = [("o5", "beta"), ("o1", "Acme Bikes"), ("o2", "acme"), ("o4", "Beta"), ("o3", "ＡＣＭＥ Ｗｉｄｅ"), ("o6", "Zebra/Co")]
        try await fixture.append(names.map { H.register($0.0, $0.1, creator: "u-\($0.0)") })

        var seen: [String] = []
        var cursor: String?
        repeat {
            let page = try fixture.queries.directory(query: nil, limit: 2, cursor: cursor)
            #expect(page.items.count == 2, "no short page before the last")
            seen += page.items.map(\.organisationId)
            cursor = page.next
        } while cursor != nil
        // "acme" < "acme bikes" < "acme wide" (width-folded) < "beta" (o4) = "beta" (o5) < "zebra/co".
        #expect(seen == ["o2", "o1", "o3", "o4", "o5", "o6"])
        let one = try fixture.queries.directory(query: nil, limit: nil, cursor: nil)
        #expect(one.next == nil && one.items.first == OrganisationDirectoryEntry(organisationId: "o2", name: "acme", folded: "acme"))
    }

    @Test func aQueryMatchesASubstringIgnoringCaseAndWidth() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        let names = [("o1", "Acme Bikes"), ("o2", "acme"), ("o3", "ＡＣＭＥ Ｗｉｄｅ"), ("o4", "Bakery Acmé"), ("o5", "Pacmen"), ("o6", "Other")]
        try await fixture.append(names.map { H.register($0.0, $0.1, creator: "u-\($0.0)") })
        func ids(_ query: String?, limit: Int? = nil) throws -> [String] {
            try fixture.queries.directory(query: query, limit: limit, cursor: nil).items.map(\.organisationId)
        }
        #expect(try ids("acme") == ["o2", "o1", "o3", "o5"], "Acmé keeps its accent: only case and width fold")
        #expect(try ids("  ACME ") == ["o2", "o1", "o3", "o5"], "the query is trimmed and folded as names are")
        #expect(try ids("ｂｉｋｅ") == ["o1"])
        #expect(try ids("acmé") == ["o4"])
        #expect(try ids("nothing") == [])
        #expect(try ids("") == ["o2", "o1", "o3", "o4", "o6", "o5"])
        #expect(try ids("   ") == ids(nil))
        #expect(try ids(String(repeating: "a", count: 100_000)) == [])

        let first = try fixture.queries.directory(query: "acme", limit: 3, cursor: nil)
        #expect(first.items.map(\.organisationId) == ["o2", "o1", "o3"])
        let second = try fixture.queries.directory(query: "acme", limit: 3, cursor: first.next)
        #expect(second.items.map(\.organisationId) == ["o5"] && second.next == nil)
    }

    /// A search for a rare name must not read the whole directory in one request: it stops
    /// after `entriesScannedPerRequestMax` entries with a short page and a `next`, and
    /// following `next` finds every match once.
    @Test(.timeLimit(.minutes(2))) func aSearchReadsABoundedNumberOfEntriesPerRequest() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        let bound = WorkplaceQueries<LMDBEventStore>.entriesScannedPerRequestMax
        let total = bound * 2 + 100
        // Matches at the very start, just past the first bound, and at the end.
        let matching: Set<Int> = [0, bound + 5, total - 1]
        var events: [WorkplaceEvent] = []
        for n in 0..<total {
            let name = String(format: "org %05d", n) + (matching.contains(n) ? " needle" : "")
            events.append(H.register("o\(n)", name, creator: "u\(n)"))
            if events.count == 1_000 {
                try await fixture.append(events)
                events = []
            }
        }
        try await fixture.append(events)

        var pages: [ItemPage<OrganisationDirectoryEntry>] = []
        var cursor: String?
        repeat {
            let page = try fixture.queries.directory(query: "NEEDLE", limit: 10, cursor: cursor)
            pages.append(page)
            cursor = page.next
            try #require(pages.count < 10)
        } while cursor != nil
        #expect(pages.flatMap(\.items).map(\.organisationId) == ["o0", "o\(bound + 5)", "o\(total - 1)"])
        #expect(pages.count == 3, "each request stopped at the bound: \(pages.map { $0.items.map(\.organisationId) })")
        #expect(pages[0].items.map(\.organisationId) == ["o0"] && pages[0].next != nil, "a short page that still has a next")
        // Without a query a full page comes at once.
        #expect(try fixture.queries.directory(query: nil, limit: 500, cursor: nil).items.count == 500)
    }

    /// A name of 100 characters can be far more bytes than a key holds: its key is cut at a
    /// character boundary, and it is still listed and found.
    @Test func aNameLongerThanAKeyIsListedAndFound() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        let family = "👨‍👩‍👧‍👦"
        let long = String(repeating: family, count: 99) + "X"
        let longer = String(repeating: family, count: 99) + "Y"
        try await fixture.append(H.register("o2", longer, creator: "a"), H.register("o1", long, creator: "b"), H.register("o3", "Plain", creator: "c"))
        #expect(try fixture.queries.directory(query: nil, limit: nil, cursor: nil).items.map(\.organisationId) == ["o3", "o1", "o2"])
        #expect(try fixture.queries.directory(query: "y", limit: nil, cursor: nil).items.map(\.name) == [longer])
        let first = try fixture.queries.directory(query: nil, limit: 2, cursor: nil)
        #expect(try fixture.queries.directory(query: nil, limit: 2, cursor: first.next).items.map(\.organisationId) == ["o2"])
    }

    @Test func badLimitsAndCursorsAreRefused() async throws {
        let fixture = try await WorkplaceFixture()
        defer { fixture.close() }
        try await fixture.append(H.register("o1", "One", creator: "a"), H.register("o2", "Two", creator: "b"))
        try await fixture.append(H.review("o1", "r1", of: "a"), H.review("o1", "r2", of: "a"))
        let queries = fixture.queries
        for limit in [0, -5, 501] {
            #expect(throws: ListQueryError.limitOutOfRange(limit, allowed: 1...500)) { try queries.directory(query: nil, limit: limit, cursor: nil) }
        }
        let reviewCursor = try #require(try await queries.reviews(in: "o1", employee: nil, limit: 1, cursor: nil).next)
        for cursor in ["", "%%%", "not base64 at all", "AAAA", reviewCursor, "_w"] {
            #expect(throws: ListQueryError.malformedCursor, "\(cursor)") { try queries.directory(query: nil, limit: nil, cursor: cursor) }
        }
        let next = try #require(try queries.directory(query: nil, limit: 1, cursor: nil).next)
        #expect(try queries.directory(query: nil, limit: 1, cursor: next).items.map(\.organisationId) == ["o2"])
    }
}
