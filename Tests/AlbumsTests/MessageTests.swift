import EventSourcing
import Testing
@testable import Albums

/// Chat: members post messages.
@Suite("Albums messages")
struct MessageTests {
    typealias D = AlbumsDecider
    typealias F = Fixture

    func post(_ text: String, id: String = F.message, by userId: String = F.bob) -> AlbumsCommand {
        .postMessage(groupId: F.summer, messageId: id, text: text, by: F.actor(userId))
    }

    @Test func aMemberPostsATrimmedMessageUnderTheirCurrentName() throws {
        let events = try D.given(F.group).when(post("  See you\nat noon \n"), F.by(F.bob)).get()
        #expect(events == [.messagePosted(.init(groupId: F.summer, messageId: F.message, text: "See you\nat noon",
                                                authorId: F.bob, authorName: "Bob", postedAt: F.now))])
    }

    @Test func theTextIsRequiredAndBounded() throws {
        #expect(D.given(F.group).when(post(" \n\t "), F.by(F.bob)).fields == ["text"])
        #expect(D.given(F.group).when(post(F.huge), F.by(F.bob)).fields == ["text"])
        #expect(D.given(F.group).when(post(String(repeating: "t", count: 4_001)), F.by(F.bob)).fields == ["text"])
        #expect(try D.given(F.group).when(post(String(repeating: "t", count: 4_000)), F.by(F.bob)).get().count == 1)
    }

    @Test func aMessageChangesNothingTheDecisionsFold() throws {
        // So that folding a long chat for each command copies nothing (see AlbumsState).
        let messages = try (0..<3).flatMap { try D.given(F.group).when(post("Hi \($0)", id: "m\($0)"), F.by(F.bob)).get() }
        #expect(messages.count == 3)
        #expect(D.fold(F.group + messages) == D.fold(F.group))
    }

    @Test func outsidersCannotPost() {
        #expect(D.given(F.group).when(post("Hi", by: F.cat), F.by(F.cat)).failure == .groupNotFound)
        #expect(D.given([]).when(post("Hi"), F.by(F.bob)).failure == .groupNotFound)
    }
}
