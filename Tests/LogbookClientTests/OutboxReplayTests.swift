import Foundation
import LogbookClient
import Testing

/// The outbox in process against the real server: what it finds on disk after a crash, and
/// commands the server refuses when they are finally sent.
@Suite("Client: the outbox's files and refusals", .timeLimit(.minutes(1)))
struct OutboxReplayTests {
    static let completionRoute = "/v1/houses/{houseId}/tasks/{taskId}/completions"

    /// Waits until `outbox` has sent everything.
    static func drained(_ outbox: Outbox) async throws {
        let deadline = ContinuousClock.now + .seconds(15)
        while await !outbox.pending.isEmpty {
            guard ContinuousClock.now < deadline else { throw TimedOut(waitingFor: "the outbox to drain") }
            try await Task.sleep(for: .milliseconds(20))
        }
    }

    /// The next `count` outcomes; throws when they do not all come within `timeout`.
    static func read(_ count: Int, from outbox: Outbox, timeout: Duration = .seconds(15)) async throws -> [OutboxOutcome] {
        try await withThrowingTaskGroup(of: [OutboxOutcome]?.self) { group in
            group.addTask {
                var outcomes: [OutboxOutcome] = []
                for try await outcome in outbox.outcomes {
                    outcomes.append(outcome)
                    if outcomes.count == count { break }
                }
                return outcomes
            }
            group.addTask {
                try await Task.sleep(for: timeout)
                return nil
            }
            defer { group.cancelAll() }
            guard let outcomes = try await group.next() ?? nil else { throw TimedOut(waitingFor: "\(count) outcomes") }
            return outcomes
        }
    }

    @Test func aTornWriteAndACommandAnsweredJustBeforeACrashLoseNothingAndResendNothing() async throws {
        let rig = try await ProxiedServer()
        let ann = try await rig.client().registered("Ann")
        let house = try await TestHouse(by: ann)
        let directory = rig.storageURL("phone").appendingPathComponent("outbox")
        let firstFile = directory.appendingPathComponent("00000000000000000001.command")
        var queued: [QueuedCommand] = []
        do {
            rig.proxy.refuse()
            let phone = try rig.client(named: "phone", credentials: ann.credentials)
            for _ in 0..<2 { queued.append(try await phone.enqueue { try await $0.completeTask(path: .init(houseId: house.houseId, taskId: house.taskId)) }) }
            let firstCommand = try Data(contentsOf: firstFile)
            rig.proxy.forward(to: rig.server.port)
            try await Self.drained(try #require(phone.outbox))
            // As a crash leaves it: the first command's outcome written but the command not yet
            // removed, and a third command's write torn before its rename.
            try firstCommand.write(to: firstFile)
            try firstCommand.prefix(40).write(to: directory.appendingPathComponent(".00000000000000000003.command.\(UUID().uuidString).partial"))
        }

        let reopened = try rig.client(named: "phone", credentials: ann.credentials)
        let outbox = try #require(reopened.outbox)
        #expect(await outbox.pending.isEmpty, "the answered command is not queued again")
        let outcomes = try await Self.read(2, from: outbox)
        #expect(outcomes.map(\.id) == queued.map(\.id))
        #expect(outcomes.map(\.result).allSatisfy { if case .accepted(201, _) = $0 { true } else { false } })
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path).allSatisfy { $0.hasSuffix(".outcome") })
        try await Task.sleep(for: .milliseconds(200))
        #expect(rig.requestCount(method: "POST", route: Self.completionRoute, status: 201) == 2, "nothing sent again")
        #expect(try await rig.events(from: house.position + 1).count { $0._type == "household.taskCompleted" } == 2)
    }

    @Test func queuedCommandsTheServerRefusesComeOutRejectedInTheirPlaceAndTheRestGoOn() async throws {
        let rig = try await ProxiedServer()
        let ann = try await rig.client().registered("Ann")
        let house = try await TestHouse(by: ann)
        let version = try await ann.run { try await $0.getHouse(path: .init(houseId: house.houseId)).ok.headers.eTag }
        rig.proxy.refuse()
        let phone = try rig.client(named: "phone", credentials: ann.credentials)
        let path = Operations.CompleteTask.Input.Path(houseId: house.houseId, taskId: house.taskId)
        var queued: [QueuedCommand] = []
        queued.append(try await phone.enqueue { try await $0.completeTask(path: path) })
        // The house as it was before the completion queued first: 412 once that one is applied.
        queued.append(try await phone.enqueue { try await $0.completeTask(path: path, headers: .init(ifMatch: version)) })
        queued.append(try await phone.enqueue { try await $0.addRoom(path: .init(houseId: house.houseId), body: .json(.init(name: "kitchen"))) })
        queued.append(try await phone.enqueue { try await $0.addRoom(path: .init(houseId: house.houseId), body: .json(.init(name: ""))) })
        queued.append(try await phone.enqueue { try await $0.completeTask(path: path) })
        rig.proxy.forward(to: rig.server.port)

        let outcomes = try await Self.read(5, from: try #require(phone.outbox))
        #expect(outcomes.map(\.id) == queued.map(\.id))
        let statuses = outcomes.map { outcome -> String in
            switch outcome.result {
            case let .accepted(status, _): "\(status)"
            case let .rejected(problem): "\(problem.status) \(problem.code)"
            }
        }
        #expect(statuses == ["201", "412 precondition_failed", "409 room_name_taken", "422 validation_failed", "201"])
        #expect(try await rig.events(from: house.position + 1).count { $0._type == "household.taskCompleted" } == 2)
    }
}
