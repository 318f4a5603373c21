import Foundation
import LogbookClient
import Testing

/// A live stream through a connection that is cut, and a server that is restarted, while
/// another member completes tasks: it resumes each time from the last notification it gave
/// (Last-Event-ID), so what it gives is the house's events, every one, once, in order.
@Suite("Client: live notifications across a cut and a restart", .timeLimit(.minutes(1)))
struct LiveResumeTests {
    @Test func notificationsAreTheHousesEventsWithNoGapAndNoRepeatAcrossACutAndARestart() async throws {
        let rig = try await ProxiedServer()
        let ann = try await rig.client().registered("Ann")
        let house = try await TestHouse(by: ann)
        // Bob reaches the server past the proxy, so he goes on while Ann's stream is cut.
        let bob = try await rig.client(direct: true).registered("Bob")
        _ = try await bob.run { try await $0.joinHouse(body: .json(.init(joinCode: house.joinCode))).ok.body.json }

        let heard = Collected<LiveNotification>()
        let listening = Task {
            for try await notification in ann.live(topics: [house.topic], after: UInt64(house.position)) { heard.append(notification) }
        }
        defer { listening.cancel() }
        let waitFor = { (position: Int64) async throws in
            try await heard.until("a notification of \(position)") { ($0.last?.position ?? 0) >= UInt64(position) }
        }
        try await waitFor(try await house.complete(by: bob))
        try await waitFor(try await house.complete(by: bob))

        // Cut: Ann's stream breaks and cannot reconnect while Bob completes two more; then it
        // resumes from the same server.
        rig.proxy.hold()
        rig.proxy.cutConnections()
        try await house.complete(by: bob)
        try await house.complete(by: bob)
        rig.proxy.forward(to: rig.server.port)
        try await waitFor(try await house.complete(by: bob))

        // Restart: the server dies under Ann's stream; Bob completes two on the next one before
        // Ann can reach it, and one after: the next server has the first two only in its log.
        rig.proxy.hold()
        await rig.kill()
        try await rig.restart(forwarding: false)
        let bobAgain = try rig.client(direct: true, credentials: bob.credentials)
        try await house.complete(by: bobAgain)
        try await house.complete(by: bobAgain)
        rig.proxy.forward(to: rig.server.port)
        try await waitFor(try await house.complete(by: bobAgain))

        let events = try await rig.events(from: house.position + 1).filter { $0.tags.contains(house.topic) }
        let notified = heard.all
        #expect(notified.map(\.position) == events.map { UInt64($0.position) })
        #expect(notified.map(\.type) == events.map(\._type))
        #expect(notified.count(where: { $0.type == "household.taskCompleted" }) == 8)
        // One stream, then one after the cut, then one to the next server.
        #expect(rig.requestCount(method: "GET", route: "/v1/live", status: 200) == 3)
    }
}
