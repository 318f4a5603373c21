import ArgumentParser
import EventLog
import Foundation

/// `fill`: writes an app-shaped log into a server's data directory, so that `logbook serve`
/// starts on a big log and builds its read models from it (`tools/http-bench/run.sh --events`).
struct FillCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "fill",
        abstract: "Write an app-shaped log into a data directory for a server to start on.",
        discussion: """
            Writes about --events events shaped like the app's real use (the logs `rebuild` measures) \
            into DIR/log, where `logbook serve --data-dir DIR` opens it, without fsync per commit; then \
            closes the log and fsyncs it. Read models are not written: the server builds them when it \
            starts. Refuses a log that already holds events.
            """
    )

    @Option(help: "Whose log: household, quiz, neighbourhood, workplace or albums.")
    var app = BenchApp.household
    @Option(help: "Events to write (about: whole houses, games and reports are written).")
    var events: Int
    @Option(name: .customLong("data-dir"), help: "The server's data directory (created if missing).")
    var dataDirectory: String

    func validate() throws {
        guard events >= 1 else { throw ValidationError("--events must be positive") }
    }

    func run() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let (written, head) = try await write()
        try BenchLog.flush(dataDirectory)
        let elapsed = clock.now - start
        let rate = Figure.rate(Double(written) / elapsed.seconds).formatted
        print("filled \(dataDirectory)/log: \(Figure.count(written).formatted) \(app.rawValue) events, head position \(head), "
              + "in \(Figure.seconds(elapsed.seconds).formatted) s (\(rate) events/s)")
    }

    /// Appends the events and closes the log before it is fsynced; answers how many it wrote and
    /// the head position.
    private func write() async throws -> (written: Int, head: UInt64) {
        let store = try BenchLog.open(dataDirectory, unsafeNoSync: true)
        defer { store.close() }
        let existing = try store.headPosition()
        guard existing == 0 else {
            throw BenchError.refused("\(dataDirectory)/log already holds events (head position \(existing)); fill needs an empty log")
        }
        Progress.say("fill: writing about \(events) \(app.rawValue) events into \(dataDirectory)/log")
        let written = try await app.fill(store, events: events)
        return (written, try store.headPosition())
    }
}
