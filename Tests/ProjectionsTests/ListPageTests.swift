import Testing
@testable import Projections

@Suite("List paging")
struct ListPageTests {
    @Test func anAbsentLimitIsTheDefaultAndOthersMustBeInRange() throws {
        #expect(try ListPage.items(nil) == 50)
        #expect(try ListPage.items(1) == 1 && ListPage.items(500) == 500)
        for limit in [0, -1, 501, Int.max] {
            #expect(throws: ListQueryError.limitOutOfRange(limit, allowed: 1...500)) { try ListPage.items(limit) }
        }
    }

    @Test func aCursorMustBeOneIssuedForTheList() throws {
        let issued = PageCursor.encode("house-1/00000000000000000042")
        let request = try ListPage.request(limit: nil, cursor: issued, prefix: "house-1/")
        #expect(request.items == 50 && request.after == "house-1/00000000000000000042")
        #expect(try ListPage.request(limit: 3, cursor: nil, prefix: "house-1/").after == nil)
        #expect(throws: ListQueryError.malformedCursor) { try ListPage.request(limit: 3, cursor: issued, prefix: "house-2/") }
        #expect(throws: ListQueryError.limitOutOfRange(0, allowed: 1...500)) {
            try ListPage.request(limit: 0, cursor: issued, prefix: "house-1/")
        }
    }
}
