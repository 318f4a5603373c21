import ArgumentParser
import Foundation

/// `check-workplace-log`: proves the workplace bench log is one the app could have written.
struct CheckWorkplaceLogCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-workplace-log",
        abstract: "Check that every event of the workplace bench log is what WorkplaceDecider decides.",
        discussion: """
            Generates the log `rebuild --app workplace` and `fill --app workplace` write, runs each \
            step's command through WorkplaceDecider on its organisation's state so far, and fails at \
            the first command it refuses, the first event it would decide differently and the first \
            event that does not decode back to itself. Writes nothing.
            """
    )

    @Option(help: "Events in the log.")
    var events = 20_000

    func validate() throws {
        guard events >= 1 else { throw ValidationError("--events must be positive") }
    }

    func run() async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let summary = try WorkplaceLog.check(events: events)
        let elapsed = clock.now - start
        print("checked \(Figure.count(summary.events).formatted) workplace events of \(summary.organisations) organisations "
              + "in \(Figure.seconds(elapsed.seconds).formatted) s: the decider accepts every command and decides every event")
        for (type, count) in summary.eventsByType.sorted(by: { $0.value > $1.value }) {
            let share = Double(count) / Double(summary.events) * 100
            print("  \(type): \(count) (\(String(format: "%.1f", share))%)")
        }
    }
}
