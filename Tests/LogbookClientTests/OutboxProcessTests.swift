import Foundation
import LogbookClient
import Testing

/// The outbox of a client process that is killed (SIGKILL) and started again on the same
/// storage directory: what it queued is sent after the restart, in order, each command applied
/// once (its Idempotency-Key), and each outcome delivered once.
///
/// "Once" for a delivery: the outbox forgets an outcome when the loop that read it asks for the
/// next one (Outbox.swift). So an outcome whose handling the loop finished is never delivered
/// again, and the one in the app's hands when it was killed is delivered again on the next start
/// (an app handles it by its id, which the earlier delivery had too).
@Suite("Client: the outbox of a killed client process", .timeLimit(.minutes(2)))
struct OutboxProcessTests {
    static let completionRoute = "/v1/houses/{houseId}/tasks/{taskId}/completions"

    /// A server that cannot be reached, a house, and a probe that queued 20 completions of its
    /// task and was killed: the server, the house, the probe's arguments and the queued ids.
    struct Queued {
        let rig: ProxiedServer
        let house: TestHouse
        let arguments: [String]
        let ids: [String]

        func drain(holdingAfter hold: Int? = nil) throws -> ProbeRun {
            try ProbeRun(["drain"] + arguments + [ids.last!] + (hold.map { ["\($0)"] } ?? []))
        }
    }

    static func queueTwentyAndKill() async throws -> Queued {
        let rig = try await ProxiedServer()
        let ann = try await rig.client().registered("Ann")
        let house = try await TestHouse(by: ann)
        let credentials = rig.storageURL("ann.credentials")
        try FileManager.default.createDirectory(at: URL(fileURLWithPath: rig.storage), withIntermediateDirectories: true)
        try FileCredentialStore(url: credentials).save(ann.credentials!)
        let arguments = [rig.proxy.url.absoluteString, rig.storageURL("probe").path, credentials.path]

        rig.proxy.refuse()
        let first = try await ProbeRun(["enqueue"] + arguments + [house.houseId, house.taskId, "20"]).start()
        try await first.waitFor("queued all")
        await first.kill()
        #expect(first.queued.count == 20)
        #expect(try await rig.events(from: house.position + 1).isEmpty, "nothing reached the server")
        rig.proxy.forward(to: rig.server.port)
        return Queued(rig: rig, house: house, arguments: arguments, ids: first.queued)
    }

    /// The completions in the log, in order: their command ids (each the queued Idempotency-Key).
    static func appliedCommands(_ queued: Queued) async throws -> [String] {
        try await queued.rig.events(from: queued.house.position + 1).filter { $0._type == "household.taskCompleted" }.map(\.commandId)
    }

    @Test func twentyCommandsQueuedByAKilledProcessAreAppliedOnceInOrderAndEachOutcomeDeliveredOnce() async throws {
        let queued = try await Self.queueTwentyAndKill()
        // Restarted with the server reachable: it reads five outcomes, holds the fifth (asks for
        // no next one) while the rest are answered, and is killed.
        let second = try await queued.drain(holdingAfter: 5).start()
        try await second.waitFor("answered all")
        await second.kill()
        let third = try await queued.drain().start()
        try await third.waitFor("drained")

        #expect(second.outcomes.map(\.id) == Array(queued.ids.prefix(5)))
        // The fifth was never acknowledged: delivered again, and nothing before it.
        #expect(third.outcomes.map(\.id) == Array(queued.ids.dropFirst(4)))
        #expect((second.outcomes + third.outcomes).allSatisfy { $0.status == 201 })
        #expect(try await Self.appliedCommands(queued) == queued.ids)
        #expect(queued.rig.requestCount(method: "POST", route: Self.completionRoute, status: 201) == 20, "each sent once")
        #expect(try Self.outboxFiles(queued).isEmpty)
    }

    @Test func aCommandWhoseAnswerTheKilledProcessNeverReadIsSentAgainWithItsKeyAndAppliedOnce() async throws {
        let queued = try await Self.queueTwentyAndKill()
        // The eighth command reaches the server, which carries it out; as its answer arrives
        // the process is killed, so it never learns of it.
        let eighth = queued.ids[7]
        let second = try queued.drain()
        queued.rig.proxy.dropAnswer(toRequestContaining: eighth) { second.process.kill() }
        _ = try await second.start()
        let dropped = try await queued.rig.proxy.droppedAnswer(timeout: .seconds(10))
        await second.process.exited()
        let third = try await queued.drain().start()
        try await third.waitFor("drained")

        #expect(dropped.hasPrefix("HTTP/1.1 201"), "\(dropped)")
        let applied = try await queued.rig.events(from: queued.house.position + 1).filter { $0._type == "household.taskCompleted" }
        #expect(applied.map(\.commandId) == queued.ids, "each applied once, in order")
        // Sent twice, answered the same both times: by the key, from the log the second time.
        #expect(queued.rig.requestCount(method: "POST", route: Self.completionRoute, status: 201) == 21)
        let replayed = third.outcomes.first { $0.id == eighth }
        #expect(replayed?.status == 201)
        #expect(replayed?.detail == applied.dropFirst(7).first.map { "\($0.position)" })
        // Delivered once each: the killed run read some outcomes before the eighth; the next run
        // delivers the rest, and again the one the killed run had in hand, if it had one.
        let before = second.outcomes.map(\.id), after = third.outcomes.map(\.id)
        #expect(Array(queued.ids.prefix(before.count)) == before && before.count < 8)
        let inHand = before.last.map { after.first == $0 } ?? false
        #expect(before + after.dropFirst(inHand ? 1 : 0) == queued.ids)
        #expect(try Self.outboxFiles(queued).isEmpty)
    }

    /// What the probe's outbox directory still holds.
    static func outboxFiles(_ queued: Queued) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: queued.rig.storageURL("probe").appendingPathComponent("outbox").path)
    }
}
