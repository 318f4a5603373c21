import ArgumentParser
import EventLog
import LogInspection
import Foundation

/// `demo`: seeds a small demo log into an empty data directory and lists it, so a newcomer can
/// try every other verb on real data before the server exists. The only verb that writes.
struct DemoCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "demo",
        abstract: "Seed a demo event log into an empty data directory (created if missing), then list it.",
        discussion: "A directory that already holds events is left as it is and only listed."
    )

    @Option(
        name: .customLong("data-dir"),
        help: ArgumentHelp("The data directory to seed. Default: $LOGBOOK_DATA_DIR.", valueName: "dir")
    )
    var path: String?

    func run() async throws {
        guard let path = path ?? ProcessInfo.processInfo.environment[DataDirectoryOption.environmentVariable], !path.isEmpty else {
            throw AdminError.noDataDirectory
        }
        let store: LMDBEventStore
        do {
            store = try LMDBEventStore(dataDirectory: path)
        } catch {
            throw AdminError.cannotOpen(path, error)
        }
        let seeded = try store.headPosition() == 0 ? try await DemoLog.seed(store) : 0
        store.close()
        print(seeded > 0 ? "Seeded \(seeded) demo events into \(path)." : "\(path) already holds events; nothing seeded.")
        print("")
        let output = EventOutput(json: false, flushEachLine: false)
        try await EventScanner(store: store, filter: EventFilter()).forward { output.write($0) }
        output.finish()
        print("""

            Try next:
              logbook-admin stream house-demo --data-dir \(path)
              logbook-admin events --type household.taskCompleted --json --data-dir \(path)
              logbook-admin stats --data-dir \(path)
              logbook-admin verify --data-dir \(path)
            """)
    }
}
