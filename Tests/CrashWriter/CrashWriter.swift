import EventLog
import Foundation
import PostgresEventLog

/// A child process for the crash tests: appends durably from several concurrent writers until it
/// is killed, printing `ack <position> <commandID>` for every append the log acknowledged.
///
/// The log is a data directory (LMDB) or a `postgres://` URL. Each writer owns stream
/// `crash-<writer>` and appends with an exact expected version, so a restart also proves that
/// stream versions survived: a writer resumes from the stored version.
@main
struct CrashWriter {
    static func main() async {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2 else {
            FileHandle.standardError.write(Data("usage: logbook-crash-writer DATA_DIR|postgres://… [WRITERS]\n".utf8))
            exit(2)
        }
        let writers = arguments.count >= 3 ? Int(arguments[2]) ?? 4 : 4
        do throws(EventLogError) {
            if arguments[1].hasPrefix("postgres") {
                let store = try await PostgresEventStore.connect(to: PostgresLocation(url: arguments[1]))
                await run(store, writers: writers)
            } else {
                var options = EventStoreOptions()
                // Only for the power-loss test that shows its fault injector catches a log that
                // does not sync.
                let environment = ProcessInfo.processInfo.environment
                options.unsafeNoSync = environment["LOGBOOK_CRASH_WRITER_UNSAFE_NO_SYNC"] == "1"
                // The write-ahead mode, checkpointing every so many commits, in a boot the test
                // names (a power-loss test gives each round its own, as a machine's restart would).
                options.writeAhead = environment["LOGBOOK_CRASH_WRITER_WRITE_AHEAD"] == "1"
                if let commits = environment["LOGBOOK_CRASH_WRITER_CHECKPOINT_COMMITS"].flatMap({ Int($0) }) {
                    options.writeAheadCommitsPerCheckpointMax = commits
                }
                if let boot = environment["LOGBOOK_CRASH_WRITER_BOOT_ID"] { options.bootID = boot }
                // The index tail (docs/decisions/0008), written every so many events and never
                // because the writer is idle, so that nearly every kill finds one.
                if let events = environment["LOGBOOK_CRASH_WRITER_INDEX_TAIL"].flatMap({ Int($0) }) {
                    options.indexTail.eventsMax = events
                    options.indexTail.flushesWhenIdle = false
                }
                await run(try LMDBEventStore(dataDirectory: arguments[1], options: options), writers: writers)
            }
        } catch {
            FileHandle.standardError.write(Data("logbook-crash-writer: \(error)\n".utf8))
            exit(1)
        }
    }

    private static func run(_ store: some EventStore, writers: Int) async {
        print("ready")
        fflush(nil)
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<writers {
                group.addTask { await append(forever: store, writer: writer) }
            }
        }
    }

    private static func append(forever store: some EventStore, writer: Int) async {
        let streamID = "crash-\(writer)"
        do {
            var version = try await store.streamVersion(streamID)
            while true {
                let commandID = UUID.timeOrdered()
                let data = Data(#"{"writer":\#(writer),"version":\#(version.map { $0 + 1 } ?? 0),"padding":"\#(String(repeating: "x", count: 120))"}"#.utf8)
                let result = try await store.append(AppendRequest(
                    events: [ProposedEvent(streamID: streamID, type: "crash.appended", tags: ["writer:\(writer)"], data: data)],
                    expectedVersions: [streamID: version.map { .exact($0) } ?? .noStream],
                    metadata: AppendMetadata(commandID: commandID, actor: "crash-writer")
                ))
                version = version.map { $0 + 1 } ?? 0
                print("ack \(result.lastPosition) \(commandID.uuidString)")
                fflush(nil)
            }
        } catch {
            FileHandle.standardError.write(Data("logbook-crash-writer: \(error)\n".utf8))
            exit(1)
        }
    }
}
