import Accounts
import Albums
import Foundation
import Household
import Neighbourhood
import Quiz
import Synchronization
import Testing
import Workplace
@testable import API
@testable import EventLog

/// Who of a topic's watchers receives which of its events, for every topic kind and every event
/// type of its app (SPEC §1 "Live updates": a notification reaches only users who may read what
/// it is about), against the read rules of the app's query routes (SPEC §2). Each check is the
/// hub's own per event and stream: the event's keys over every kind, then the stream's grants.
@Suite("Live: who receives which event")
struct LiveAudienceTests {
    /// An event as the log holds it; the hub reads only its type, tags and actor.
    static func event(_ type: String, _ tags: [String], actor: String = "system") -> RecordedEvent {
        RecordedEvent(
            position: 1, streamID: "test-1", streamVersion: 0, type: type, schemaVersion: 1, recordedAt: Date(), actor: actor,
            commandID: UUID(), correlationID: UUID(), causationID: nil, tags: tags, data: Data("{}".utf8))
    }

    /// Whether a stream holding `grant` is sent `event`, as the hub's fan-out and catch-up decide.
    static func receives(_ grant: LiveGrant, _ event: RecordedEvent) -> Bool {
        let stream = LiveSubscription(id: 0, userId: "watcher", grants: [grant], liveAfter: 0, bufferEventsMax: 1, sessionActive: { true })
        return stream.topic(for: event, keys: LiveTopics.keys(of: event)) != nil
    }

    // MARK: organisation:ID

    /// Acme's watchers: Ann an admin at Amsterdam, Bob an employee there, Cat one at Rotterdam.
    static let acme = "acme", amsterdam = "ams", rotterdam = "rtm"
    static let watchers: [String: WorkplaceViewer] = [
        "ann": WorkplaceViewer(userId: "ann", standing: .member(locationId: amsterdam, admin: true)),
        "bob": WorkplaceViewer(userId: "bob", standing: .member(locationId: amsterdam, admin: false)),
        "cat": WorkplaceViewer(userId: "cat", standing: .member(locationId: rotterdam, admin: false)),
    ]

    /// One event type of an organisation: the user it is about, the location it names, and who
    /// of Acme's watchers may read it by the organisation routes.
    struct OrganisationRow: Sendable, CustomStringConvertible {
        let type: String
        var subject: String?
        var location: String?
        var entity: String?
        let readers: Set<String>
        var description: String { type }

        func tags(organisation: String = LiveAudienceTests.acme) -> [String] {
            [WorkplaceEvent.organisationTag(organisation)] + [subject.map(WorkplaceEvent.userTag), entity, location.map { "location:\($0)" }]
                .compactMap { $0 }
        }
    }

    static let everyone: Set<String> = ["ann", "bob", "cat"]
    /// Every workplace event type, tagged as the domain tags it (`user:` of the user it is
    /// about, `location:`, `form:`, `review:`, `news:`); subjects are Cat, the located events
    /// Amsterdam (Ann's and Bob's) unless they say otherwise.
    static let organisationRows: [OrganisationRow] = [
        // The organisation's face: the organisation route shows every member its name and locations.
        .init(type: WorkplaceEvent.OrganisationRegistered.typeName, subject: "ann", readers: everyone),
        .init(type: WorkplaceEvent.LocationAdded.typeName, location: rotterdam, readers: everyone),
        .init(type: WorkplaceEvent.LocationRenamed.typeName, location: rotterdam, readers: everyone),
        .init(type: WorkplaceEvent.LocationRemoved.typeName, location: amsterdam, readers: everyone),
        // Requests and the member list are admins'; a user sees their own standing.
        .init(type: WorkplaceEvent.JoinRequested.typeName, subject: "cat", location: amsterdam, readers: ["ann", "cat"]),
        .init(type: WorkplaceEvent.JoinRequestAccepted.typeName, subject: "cat", location: amsterdam, readers: ["ann", "cat"]),
        .init(type: WorkplaceEvent.JoinRequestRejected.typeName, subject: "cat", readers: ["ann", "cat"]),
        .init(type: WorkplaceEvent.MemberChanged.typeName, subject: "cat", location: amsterdam, readers: ["ann", "cat"]),
        .init(type: WorkplaceEvent.MemberRemoved.typeName, subject: "cat", readers: ["ann", "cat"]),
        // Forms are admins' only.
        .init(type: WorkplaceEvent.FormCreated.typeName, entity: "form:f", readers: ["ann"]),
        .init(type: WorkplaceEvent.FormRenamed.typeName, entity: "form:f", readers: ["ann"]),
        .init(type: WorkplaceEvent.QuestionAdded.typeName, entity: "form:f", readers: ["ann"]),
        .init(type: WorkplaceEvent.QuestionRemoved.typeName, entity: "form:f", readers: ["ann"]),
        .init(type: WorkplaceEvent.QuestionsReordered.typeName, entity: "form:f", readers: ["ann"]),
        .init(type: WorkplaceEvent.FormDeleted.typeName, entity: "form:f", readers: ["ann"]),
        // Reviews: admins anyone's, an employee their own.
        .init(type: WorkplaceEvent.ReviewSubmitted.typeName, subject: "cat", entity: "review:r", readers: ["ann", "cat"]),
        // News: a member their own location's, admins every location's.
        .init(type: WorkplaceEvent.NewsPosted.typeName, location: amsterdam, entity: "news:n", readers: ["ann", "bob"]),
        .init(type: WorkplaceEvent.NewsDeleted.typeName, location: rotterdam, entity: "news:n", readers: ["ann", "cat"]),
    ]

    static func organisationGrant(_ viewer: WorkplaceViewer) -> LiveGrant {
        OrganisationTopic().grant(acme, OrganisationStanding(viewer), recheck: {})
    }

    @Test(arguments: organisationRows)
    func anOrganisationsEventReachesOnlyThoseWhoMayReadIt(_ row: OrganisationRow) {
        for (name, viewer) in Self.watchers {
            let event = Self.event(row.type, row.tags())
            #expect(Self.receives(Self.organisationGrant(viewer), event) == row.readers.contains(name), "\(row.type) to \(name)")
            let elsewhere = Self.event(row.type, row.tags(organisation: "other"))
            #expect(!Self.receives(Self.organisationGrant(viewer), elsewhere), "another organisation's \(row.type) to \(name)")
        }
        // Someone whose standing is no longer a member's (before the recheck ends their grant) gets nothing.
        let pending = WorkplaceViewer(userId: "cat", standing: .pending(locationId: Self.rotterdam))
        #expect(!Self.receives(Self.organisationGrant(pending), Self.event(row.type, row.tags())), "\(row.type) to a pending user")
    }

    @Test func everyWorkplaceEventTypeHasItsAudience() {
        let types = Set(WorkplaceEvent.catalogue.typeNames)
        #expect(Set(Self.organisationRows.map(\.type)) == types, "the table above covers every type")
        #expect(Set(OrganisationAudience.byType.keys) == types, "and so do the rules")
        // A type the rules do not know yet reaches admins only.
        let unknown = Self.event("workplace.somethingNew", [WorkplaceEvent.organisationTag(Self.acme), WorkplaceEvent.userTag("bob")])
        #expect(Self.receives(Self.organisationGrant(Self.watchers["ann"]!), unknown))
        #expect(!Self.receives(Self.organisationGrant(Self.watchers["bob"]!), unknown))
    }

    @Test func aChangedStandingChangesWhatReachesTheWatcherFromTheRecheckOn() throws {
        // The recheck on a member's change reads their standing again: Bob made an admin.
        #expect(LiveTopics.kindsRechecked(on: WorkplaceEvent.MemberChanged.typeName).contains("organisation"))
        let bob = try #require(Self.watchers["bob"])
        let standing = OrganisationStanding(bob)
        let now = Mutex(bob)
        let grant = OrganisationTopic().grant(Self.acme, standing) { standing.update(now.withLock { $0 }) }
        let stream = LiveSubscription(id: 0, userId: "bob", grants: [grant], liveAfter: 0, bufferEventsMax: 1, sessionActive: { true })
        let review = Self.event(WorkplaceEvent.ReviewSubmitted.typeName, [WorkplaceEvent.organisationTag(Self.acme), WorkplaceEvent.userTag("cat")])
        let keys = LiveTopics.keys(of: review)
        #expect(stream.topic(for: review, keys: keys) == nil)
        now.withLock { $0.standing = .member(locationId: Self.amsterdam, admin: true) }
        #expect(stream.recheck(kind: "organisation") == nil)
        #expect(stream.topic(for: review, keys: keys) == "organisation:\(Self.acme)")
        // And back: an admin made an employee no longer receives others' reviews.
        now.withLock { $0.standing = .member(locationId: Self.amsterdam, admin: false) }
        #expect(stream.recheck(kind: "organisation") == nil)
        #expect(stream.topic(for: review, keys: keys) == nil)
    }

    // MARK: game:ID

    /// Every quiz event type of a game, by its first player Ann; who of the two players reads it.
    static let gameRows: [(type: String, readers: Set<String>)] = [
        (QuizEvent.GameCreated.typeName, ["ann", "bob"]),
        // The opponent sees the answer's progress (not its points).
        (QuizEvent.AnswerGiven.typeName, ["ann", "bob"]),
        (QuizEvent.GameFinished.typeName, ["ann", "bob"]),
        // Each player sees only whether they themselves have seen the result.
        (QuizEvent.ResultSeen.typeName, ["ann"]),
        // Not of a game.
        (QuizEvent.QuestionAdded.typeName, []),
    ]

    @Test func aGamesEventReachesThePlayersWhoMayReadIt() {
        #expect(Set(Self.gameRows.map(\.type)) == Set(QuizEvent.catalogue.typeNames), "every quiz type")
        for (type, readers) in Self.gameRows {
            let tags = type == QuizEvent.QuestionAdded.typeName ? [QuizEvent.questionTag("q")] : [QuizEvent.gameTag("g")]
            let event = Self.event(type, tags, actor: "ann")
            for player in ["ann", "bob"] {
                let grant = MemberTopic.game.grant("g", for: player, recheck: {})
                #expect(Self.receives(grant, event) == readers.contains(player), "\(type) to \(player)")
                #expect(!Self.receives(MemberTopic.game.grant("other", for: player, recheck: {}), event), "\(type) of another game")
            }
        }
    }

    // MARK: house:ID, group:ID, neighbourhood: every event to every watcher

    /// A house's members read all of it (members, join code, rooms, tasks, history,
    /// scoreboard); a group's members all of it (members and invitations, photos, chat); a
    /// neighbourhood's residents all of its reports, replies and follower counts.
    @Test func aHousesAGroupsAndANeighbourhoodsEventsReachEveryWatcherOfThemAndNoOneElse() {
        for type in HouseholdEvent.catalogue.typeNames {
            let event = Self.event(type, [HouseholdEvent.houseTag("h"), HouseholdEvent.userTag("bob"), HouseholdEvent.roomTag("r")])
            #expect(Self.receives(MemberTopic.house.grant("h", for: "ann", recheck: {}), event), "\(type) to a member")
            #expect(!Self.receives(MemberTopic.house.grant("h2", for: "ann", recheck: {}), event), "\(type) to another house")
        }
        for type in AlbumsEvent.catalogue.typeNames {
            let event = Self.event(type, [AlbumsEvent.groupTag("g"), "user:bob"])
            #expect(Self.receives(MemberTopic.group.grant("g", for: "ann", recheck: {}), event), "\(type) to a member")
            #expect(!Self.receives(MemberTopic.group.grant("g2", for: "ann", recheck: {}), event), "\(type) to another group")
        }
        for type in NeighbourhoodEvent.catalogue.typeNames {
            let tags = [NeighbourhoodEvent.reportTag("r"), NeighbourhoodEvent.neighbourhoodTag("1012AB"), NeighbourhoodEvent.userTag("bob")]
            let event = Self.event(type, tags)
            #expect(Self.receives(NeighbourhoodTopic().grant("1012AB", recheck: {}), event), "\(type) to a resident")
            #expect(!Self.receives(NeighbourhoodTopic().grant("3011AA", recheck: {}), event), "\(type) to another neighbourhood")
        }
    }

    // MARK: me

    @Test func meCarriesTheCallersOwnEventsAndTheRepliesThatNotifyThem() {
        let ann = MeTopic().grant(for: "ann") { _ in false }
        for type in AccountEvent.catalogue.typeNames {
            #expect(Self.receives(ann, Self.event(type, [AccountNames.userTag("ann")])), "her own \(type)")
            #expect(!Self.receives(ann, Self.event(type, [AccountNames.userTag("bob")])), "Bob's \(type)")
        }
        let game = Self.event(QuizEvent.GameCreated.typeName, [QuizEvent.gameTag("g"), QuizEvent.userTag("bob"), QuizEvent.userTag("ann")], actor: "bob")
        #expect(Self.receives(ann, game), "a game started with her")
        // Another app's event about her is that app's topic's, not hers.
        let review = Self.event(WorkplaceEvent.ReviewSubmitted.typeName, [WorkplaceEvent.organisationTag(Self.acme), WorkplaceEvent.userTag("ann")])
        #expect(!Self.receives(ann, review))
        // A reply reaches her when the read model says it notifies her (she follows the report).
        let reply = Self.event(NeighbourhoodEvent.ReplyPosted.typeName, [NeighbourhoodEvent.reportTag("r"), NeighbourhoodEvent.userTag("bob")])
        #expect(!Self.receives(ann, reply))
        #expect(Self.receives(MeTopic().grant(for: "ann") { _ in true }, reply))
        for type in NeighbourhoodEvent.catalogue.typeNames where type != NeighbourhoodEvent.ReplyPosted.typeName {
            #expect(!Self.receives(MeTopic().grant(for: "ann") { _ in true }, Self.event(type, [NeighbourhoodEvent.userTag("ann")])), "\(type)")
        }
    }
}
