import Foundation
import LogbookClient
import Testing

/// A command's answer lost with the server that gave it: the client's retry carries the same
/// Idempotency-Key, so the next server answers what the first one did, and appends nothing.
@Suite("Client: a lost answer, retried", .timeLimit(.minutes(1)))
struct LostAnswerTests {
    @Test func aCompletionWhoseAnswerDiedWithTheServerIsAppliedOnceAndAnsweredTheSame() async throws {
        let rig = try await ProxiedServer()
        let ann = try await rig.client().registered("Ann")
        let house = try await TestHouse(by: ann)
        let first = rig.server
        // As the first server's answer begins to arrive: no more connections until the next
        // server is up (the retry waits in the proxy), the server killed, the answer dropped.
        rig.proxy.dropAnswer(toRequestContaining: "POST \(house.completionsPath) ") { [proxy = rig.proxy] in
            proxy.hold()
            first.kill()
        }
        async let answered = house.complete(by: ann)
        let dropped = try await rig.proxy.droppedAnswer(timeout: .seconds(10))
        await first.process.exited()
        try await rig.restart()
        let position = try await answered

        // The race happened: the first server had carried it out and was answering 201.
        #expect(dropped.hasPrefix("HTTP/1.1 201"), "\(dropped)")
        let completions = try await rig.events().filter { $0._type == "household.taskCompleted" }
        #expect(completions.count == 1)
        #expect(completions.first?.position == position)
        // Both servers answered it, with the same 201: the second from the log, by its key.
        #expect(rig.requestCount(method: "POST", route: "/v1/houses/{houseId}/tasks/{taskId}/completions", status: 201) == 2)
    }
}
