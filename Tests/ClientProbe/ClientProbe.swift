import Foundation
import LogbookClient

/// A client app in a process of its own, which the outbox tests kill with SIGKILL and start
/// again on the same storage directory (Tests/LogbookClientTests/OutboxProcessTests.swift).
///
///     logbook-client-probe enqueue <server> <storage> <credentials> <house> <task> <count>
///         queues <count> completions of the task, printing `queued <sequence> <id>` for each,
///         then `queued all`, and waits to be killed;
///     logbook-client-probe drain <server> <storage> <credentials> <last id> [<hold after>]
///         prints `outcome <sequence> <id> <status> <position or code>` for each outcome it
///         reads; after the one of <last id> (acknowledged by asking for the next) `drained`,
///         and exits. With <hold after>, after that many outcomes it stops asking for the next,
///         prints `holding`, then `answered all` once nothing is pending, and waits to be killed.
@main
struct ClientProbe {
    static func main() async throws {
        let arguments = Array(CommandLine.arguments.dropFirst())
        guard arguments.count >= 4, let server = URL(string: arguments[1]) else { return usage() }
        let client = try LogbookClient(.init(
            serverURL: server, credentials: FileCredentialStore(url: URL(fileURLWithPath: arguments[3])),
            retry: RetryPolicy(attempts: 2, delayInitial: .milliseconds(50), delayMax: .milliseconds(300)),
            storageDirectory: URL(fileURLWithPath: arguments[2])))
        switch arguments[0] {
        case "enqueue" where arguments.count == 7:
            guard let count = Int(arguments[6]) else { return usage() }
            try await enqueue(count, completionsOf: arguments[5], in: arguments[4], on: client)
        case "drain" where arguments.count == 5 || arguments.count == 6:
            guard let last = UUID(uuidString: arguments[4]) else { return usage() }
            try await drain(until: last, holdingAfter: arguments.count == 6 ? Int(arguments[5]) : nil, on: client)
        default:
            usage()
        }
    }

    static func enqueue(_ count: Int, completionsOf task: String, in house: String, on client: LogbookClient) async throws {
        for _ in 0..<count {
            let queued = try await client.enqueue { try await $0.completeTask(path: .init(houseId: house, taskId: task)) }
            say("queued \(queued.sequence) \(queued.id.uuidString.lowercased())")
        }
        say("queued all")
        try await Task.sleep(for: .seconds(3600))
    }

    static func drain(until last: UUID, holdingAfter hold: Int?, on client: LogbookClient) async throws {
        guard let outbox = client.outbox else { return }
        var outcomes = outbox.outcomes.makeAsyncIterator()
        var read = 0
        while let outcome = try await outcomes.next() {
            say("outcome \(outcome.sequence) \(outcome.id.uuidString.lowercased()) \(describe(outcome.result))")
            read += 1
            if outcome.id == last {
                // An outcome is acknowledged when the reader asks for the next: ask, with this
                // task cancelled, so that the ask returns nil at once instead of waiting.
                withUnsafeCurrentTask { $0?.cancel() }
                _ = try await outcomes.next()
                say("drained")
                return
            }
            if read == hold {
                say("holding")
                while await !outbox.pending.isEmpty { try await Task.sleep(for: .milliseconds(20)) }
                say("answered all")
                try await Task.sleep(for: .seconds(3600))
            }
        }
    }

    static func describe(_ result: OutboxOutcome.Result) -> String {
        switch result {
        case let .accepted(status, body):
            let position = (try? JSONSerialization.jsonObject(with: body) as? [String: Any])?["position"].map { "\($0)" } ?? "-"
            return "\(status) \(position)"
        case let .rejected(problem):
            return "\(problem.status) \(problem.code)"
        }
    }

    /// One line, flushed: the test reads it while the probe runs, and may kill it any moment.
    static func say(_ line: String) {
        FileHandle.standardOutput.write(Data((line + "\n").utf8))
    }

    static func usage() {
        FileHandle.standardError.write(Data("usage: logbook-client-probe enqueue|drain …\n".utf8))
        exit(64)
    }
}
