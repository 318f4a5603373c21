import EventSourcing
import Testing
@testable import Workplace

/// News: admins post to a location and delete.
@Suite("Workplace news")
struct NewsTests {
    typealias D = WorkplaceDecider
    typealias F = Fixture

    func post(at locationId: String = F.depot, title: String = " Canteen ", text: String = "Open again.\r\n",
              image: String? = nil, id: String = F.news) -> WorkplaceCommand {
        .postNews(organisationId: F.acme, newsId: id, locationId: locationId, title: title, text: text, imageBlobId: image)
    }

    let delete = WorkplaceCommand.deleteNews(organisationId: F.acme, newsId: F.news)

    @Test func anAdminPostsNewsToALocation() throws {
        #expect(try D.given(F.organisation).when(post(), F.by(F.ann)).get() == [F.newsPosted()])
    }

    @Test func anImageIsABlobIdOf64LowercaseHexDigits() throws {
        let blobId = String(repeating: "0123456789abcdef", count: 4)
        let events = try D.given(F.organisation).when(post(image: blobId), F.by(F.ann)).get()
        guard case .newsPosted(let news) = events.first else { Issue.record("no news"); return }
        #expect(news.imageBlobId == blobId)
        for bad in ["blob-1", "", blobId.uppercased(), String(blobId.dropLast()), blobId + "0",
                    String(blobId.dropLast()) + "g", "../" + String(blobId.dropFirst(3)), String(repeating: "é", count: 64)] {
            let refusal = D.given(F.organisation).when(post(image: bad), F.by(F.ann))
            #expect(refusal.fields == ["imageBlobId"], "\(bad) accepted")
        }
        // Every field problem at once, the image's after the texts'.
        #expect(D.given(F.organisation).when(post(title: "", image: "x"), F.by(F.ann)).fields == ["title", "imageBlobId"])
    }

    @Test func postingNeedsAnExistingLocation() {
        #expect(D.given(F.organisation).when(post(at: F.shop), F.by(F.ann)).failure == .locationNotFound)
    }

    @Test func titleAndTextAreBounded() {
        #expect(D.given(F.organisation).when(post(title: "", text: " "), F.by(F.ann)).fields == ["title", "text"])
        #expect(D.given(F.organisation).when(post(title: F.huge, text: F.huge), F.by(F.ann)).fields == ["title", "text"])
        #expect(D.given(F.organisation).when(post(title: "Two\nlines"), F.by(F.ann)).fields == ["title"])
        #expect(throws: Never.self) {
            try D.given(F.organisation).when(post(title: String(repeating: "t", count: 200), text: String(repeating: "x", count: 20_000)),
                                             F.by(F.ann)).get()
        }
        #expect(D.given(F.organisation).when(post(text: String(repeating: "x", count: 20_001)), F.by(F.ann)).fields == ["text"])
    }

    @Test func aNewsIdIsNeverReused() {
        #expect(D.given(F.organisation + [F.newsPosted()]).when(post(), F.by(F.ann)).failure == .idTaken)
        #expect(D.given(F.organisation).when(post(id: F.hq), F.by(F.ann)).failure == .idTaken)
    }

    @Test func anAdminDeletesNewsOnce() throws {
        let events = try D.given(F.organisation + [F.newsPosted()]).when(delete, F.by(F.ann)).get()
        #expect(events == [.newsDeleted(.init(organisationId: F.acme, newsId: F.news, locationId: F.depot, actorId: F.ann))])
        let again = D.given(F.organisation + [F.newsPosted()] + events).when(delete, F.by(F.ann)).failure
        #expect(again == .newsNotFound && again?.code == "news_not_found" && again?.kind == .notFound)
        #expect(D.given(F.organisation).when(delete, F.by(F.ann)).failure == .newsNotFound)
    }

    @Test func employeesNeitherPostNorDelete() {
        #expect(D.given(F.organisation).when(post(), F.by(F.bob)).failure == .notAnAdmin)
        #expect(D.given(F.organisation + [F.newsPosted()]).when(delete, F.by(F.bob)).failure == .notAnAdmin)
    }
}
