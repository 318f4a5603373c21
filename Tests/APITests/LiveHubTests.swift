import Foundation
import Hummingbird
import HummingbirdTesting
import Logging
import Testing
@testable import API

/// The hub's fan-out in process: a stream that is not read is dropped once its buffer fills,
/// while the others and the appends go on.
///
/// Over a real socket a client that stops reading is first absorbed by the kernel's buffers
/// (megabytes on loopback) before the server's writes wait and the hub's buffer fills; here
/// the stream's consumer simply never takes a message, which is the same state without
/// thousands of events.
@Suite("Live hub", .timeLimit(.minutes(2)))
struct LiveHubTests {
    @Test func aStreamThatIsNotReadIsDroppedWhileAnotherKeepsReceiving() async throws {
        let directory = NSTemporaryDirectory() + "live-hub-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let configuration = LogbookConfiguration(dataDirectory: directory, port: 0, bcryptCost: 4, unsafeNoSync: true, writeAhead: false)
        let runtime = try LogbookRuntime(configuration: configuration, environment: ["LOGBOOK_LIVE_BUFFER_EVENTS": "8"])
        defer { runtime.close() }
        let app = try buildApplication(runtime: runtime, logger: Logger(label: "live-hub-tests"))
        try await app.test(.live) { client in
            let house = try await LiveHouseFixture.make(HTTPClient(base: "http://127.0.0.1:\(try #require(client.port))"), members: ["Ann", "Bob"])
            let grant = LiveGrant(topic: house.topic, kind: "house", keys: [house.topic], recheck: {})
            let (slow, _) = try runtime.live.subscribe(userId: "slow", grants: [grant], lastEventID: nil, sessionActive: { true })
            let (fast, _) = try runtime.live.subscribe(userId: "fast", grants: [grant], lastEventID: nil, sessionActive: { true })
            let received = Task {
                var positions: [UInt64] = []
                while let message = await fast.next() {
                    if case let .event(position, _, _) = message { positions.append(position) }
                    if positions.count == 30 { break }
                }
                return positions
            }

            var appended: [UInt64] = []
            for _ in 1...30 { appended.append(try await house.complete(by: 0)) }
            #expect(await received.value == appended, "the read stream got every event, in order")

            #expect(slow.hasEnded && runtime.live.openStreams == 1, "the unread stream left the hub")
            var drained: [LiveMessage] = []
            while let message = await slow.next() { drained.append(message) }
            #expect(drained == [.closing(.tooSlow)], "it says why, and holds nothing more")
        }
    }

    @Test func aSubscriptionsBufferIsBoundedAndKeepAlivesDoNotPileUp() {
        let subscription = LiveSubscription(id: 0, userId: "u", grants: [], liveAfter: 0, bufferEventsMax: 3, sessionActive: { true })
        #expect(subscription.offer(.keepAlive))
        #expect(subscription.offer(.keepAlive), "a keep-alive on a busy buffer is dropped, not queued")
        #expect(subscription.offer(.event(position: 1, type: "t", topic: "me")))
        #expect(subscription.offer(.event(position: 2, type: "t", topic: "me")))
        #expect(!subscription.offer(.event(position: 3, type: "t", topic: "me")), "a fourth queued message overflows")
        #expect(subscription.hasEnded)
        #expect(!subscription.offer(.event(position: 4, type: "t", topic: "me")))
    }

    @Test func aFrameIsTheSpecsShape() {
        let frame = LiveMessage.event(position: 42, type: "household.taskCompleted", topic: "house:h1").frame
        #expect(frame == "id: 42\nevent: household.taskCompleted\ndata: {\"topic\":\"house:h1\",\"type\":\"household.taskCompleted\",\"position\":42}\n\n")
        #expect(LiveMessage.keepAlive.frame == ": keep-alive\n\n")
    }
}
