import API
import ArgumentParser
import Foundation
import Logging

/// The Logbook server.
@main
struct Logbook: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logbook",
        abstract: "The Logbook server: an event-sourced back end on an embedded LMDB data directory (or a PostgreSQL log shared by servers).",
        subcommands: [Serve.self],
        defaultSubcommand: Serve.self
    )
}

/// `logbook serve`: runs the HTTP API until SIGTERM or SIGINT, then shuts down gracefully
/// (in-flight requests finish, the projection runner stops, the log closes after its queue).
struct Serve: AsyncParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Serve the HTTP API.")

    @Option(name: .customLong("data-dir"), help: "The data directory (created if missing). Default: $LOGBOOK_DATA_DIR, else ./data.")
    var dataDirectory: String?

    @Option(name: .customLong("event-store"), help: ArgumentHelp(
        "The log's PostgreSQL, shared with other servers: postgres://user[:password]@host[:port]/database[?sslmode=require]. Default: $LOGBOOK_EVENT_STORE, else the log stays in the data directory.",
        valueName: "url"))
    var eventStore: String?

    @Option(help: "The address to listen on.")
    var host = "127.0.0.1"

    @Option(help: "The port to listen on; 0 picks a free one (printed at start).")
    var port = 8080

    @Option(name: .customLong("blob-gc-interval-seconds"), help: "How often unreferenced images are collected, in seconds (1…31536000).")
    var blobCollectionIntervalSeconds = 3_600

    @Option(name: .customLong("blob-grace-hours"), help: "How old an unreferenced image must be to be collected, in hours (1…8760).")
    var blobGraceHours = 24

    /// The bounds of `--blob-gc-interval-seconds`: a year at most, so the setting stays a
    /// schedule (and its arithmetic far from overflowing).
    static let blobCollectionIntervalSecondsRange = 1...31_536_000
    /// The bounds of `--blob-grace-hours`: at least an hour, so an upload always has time to be
    /// shown before it may go; a year at most.
    static let blobGraceHoursRange = 1...8_760

    @Flag(name: .customLong("write-ahead"), inversion: .prefixedNo, help: ArgumentHelp(
        "Make each append durable with one flush of a write-ahead file (log/wal-0, log/wal-1) and sync LMDB at checkpoints (docs/decisions/0006); with --no-write-ahead each LMDB commit syncs itself. Default: on, unless $LOGBOOK_WRITE_AHEAD=0. A log written either way opens either way: one leaving the mode is recovered first."))
    var writeAhead: Bool?

    @Option(name: .customLong("index-tail-events"), help: ArgumentHelp(
        "Write the log's stream, category, type and tag entries of up to N events together while appends queue behind each other, instead of with each commit (docs/decisions/0017); 0 writes them with each commit. Default: $LOGBOOK_INDEX_TAIL_EVENTS, else the log's own default.",
        valueName: "N"))
    var indexTailEvents: Int?

    @Flag(help: "If the log is empty, seed demo accounts and a demo house (through the normal commands) before serving.")
    var demo = false

    func validate() throws {
        guard (0...65_535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard Self.blobCollectionIntervalSecondsRange.contains(blobCollectionIntervalSeconds) else {
            throw ValidationError("--blob-gc-interval-seconds must be 1…31536000")
        }
        guard Self.blobGraceHoursRange.contains(blobGraceHours) else { throw ValidationError("--blob-grace-hours must be 1…8760") }
        _ = try ServerEnvironment.bcryptCost()
        _ = try ServerEnvironment.writeAhead()
        if let indexTailEvents { _ = try ServerEnvironment.indexTailEvents(indexTailEvents, from: "--index-tail-events", given: "\(indexTailEvents)") }
        _ = try ServerEnvironment.indexTailEvents()
    }

    func run() async throws {
        var logger = Logger(label: "logbook")
        logger.logLevel = .info
        let configuration = try configuration()
        let runtime = try await LogbookRuntime.open(configuration: configuration)
        if case let .lmdb(store) = runtime.log, let recovery = store.writeAheadRecovery,
           recovery.restoredCheckpoint || recovery.replayedFrames > 0 {
            // An operator wants to know the log came back from a failure, and how.
            logger.notice("log recovered by its write-ahead mode", metadata: [
                "restored_checkpoint": "\(recovery.restoredCheckpoint)", "replayed_frames": "\(recovery.replayedFrames)",
            ])
        }
        if runtime.projections.discardedUnsyncedReadModels {
            logger.notice("read models deleted: they were written without sync when the machine restarted; building them again from the log")
        }
        do {
            // Before the application: the server answers only once the starter data is complete.
            let seeded = try await prepareAndReport(runtime: runtime, dataDirectory: configuration.dataDirectory)
            let app = try buildApplication(runtime: runtime, logger: logger) { address in
                if seeded, let email = DemoSeed.accounts.first?.email {
                    let body = #"{"email":"\#(email)","password":"\#(DemoSeed.password)"}"#
                    print("demo login: curl -s -X POST http://\(address)/v1/sessions -H 'content-type: application/json' -d '\(body)'")
                }
                // One line a script or test can wait for; fflush because stdout may be a pipe.
                print("logbook listening on http://\(address)")
                fflush(nil)
            }
            try await app.runService()
        } catch {
            await runtime.shutDown()
            throw error
        }
        await runtime.shutDown()
    }
}

extension Serve {
    /// The server's configuration from the options and the environment.
    func configuration() throws -> LogbookConfiguration {
        let environment = ProcessInfo.processInfo.environment
        var configuration = LogbookConfiguration(
            dataDirectory: dataDirectory ?? environment["LOGBOOK_DATA_DIR"] ?? "data",
            host: host,
            port: port,
            operatorToken: environment["LOGBOOK_OPERATOR_TOKEN"].flatMap { $0.isEmpty ? nil : $0 },
            bcryptCost: try ServerEnvironment.bcryptCost()
        )
        configuration.eventStore = (eventStore ?? environment["LOGBOOK_EVENT_STORE"]).flatMap { $0.isEmpty ? nil : $0 }
        configuration.blobCollectionInterval = .seconds(blobCollectionIntervalSeconds)
        configuration.blobGracePeriod = .seconds(blobGraceHours * 3_600)
        if let writeAhead = try writeAhead ?? ServerEnvironment.writeAhead(environment) { configuration.writeAhead = writeAhead }
        configuration.indexTailEventsMax = try indexTailEvents ?? ServerEnvironment.indexTailEvents(environment)
        return configuration
    }

    /// Prepares an empty log (the quiz's starter bank, and the demo data with `--demo`) and says
    /// what it made; with `--demo` on a log that holds events, says so. Whether it seeded the demo.
    private func prepareAndReport(runtime: LogbookRuntime, dataDirectory: String) async throws -> Bool {
        guard let summary = try await prepareFirstStart(runtime: runtime, demo: demo) else {
            if demo {
                print("demo: the log in \(dataDirectory) is not empty (head position \(try await runtime.log.headPosition())); seeding nothing")
                fflush(nil)
            }
            return false
        }
        print("first start: imported \(summary.questionsImported) starter quiz questions")
        if let demo = summary.demo {
            print("demo: seeded \(demo.accounts.count) accounts and \"\(demo.houseName)\" (\(demo.rooms.count) rooms, "
                  + "\(demo.tasks.count) tasks, \(demo.completions) completions) up to position \(demo.position)")
            for (account, _) in demo.accounts {
                print("demo account: \(account.email) (display name \(account.displayName), username \(account.username))")
            }
            print("demo password: \(demo.password)")
            print("demo join code: \(demo.joinCode)")
            print("demo neighbourhood: \(demo.reports) reports with replies and follows in postcode \(DemoSeed.accounts[0].postcode)")
            print("demo quiz games: \(demo.quizGames.finished) (finished), \(demo.quizGames.running) (running)")
            let work = demo.workplace
            print("demo workplace: organisation \(work.organisationId) (\"\(work.organisationName)\"; Ann admin at Amsterdam "
                  + "\(work.headOfficeId), Bob employee at Utrecht \(work.branchId)), form \(work.formId), review \(work.reviewId), "
                  + "news \(work.newsId)")
            let albums = demo.albums
            print("demo albums: group \(albums.groupId) (\"\(albums.groupName)\"; Ann and Bob), photos \(albums.photoIds.joined(separator: ", ")) "
                  + "(images \(albums.blobIds.joined(separator: ", "))), \(albums.messages) chat messages")
        }
        fflush(nil)
        return summary.demo != nil
    }
}

/// Settings read from the environment.
enum ServerEnvironment {
    /// `LOGBOOK_BCRYPT_COST`: 12 when unset; bcrypt accepts 4…31.
    static func bcryptCost() throws -> Int {
        guard let text = ProcessInfo.processInfo.environment["LOGBOOK_BCRYPT_COST"], !text.isEmpty else { return 12 }
        guard let cost = Int(text), (4...31).contains(cost) else {
            throw ValidationError("LOGBOOK_BCRYPT_COST must be a whole number from 4 to 31, not \(text)")
        }
        return cost
    }

    /// The most events the index tail may hold: every reader in another process reads the tail's
    /// records, so it stays short.
    static let indexTailEventsRange = 0...10_000

    /// `LOGBOOK_INDEX_TAIL_EVENTS`; nil when unset, which leaves the log's own default.
    static func indexTailEvents(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Int? {
        guard let text = environment["LOGBOOK_INDEX_TAIL_EVENTS"], !text.isEmpty else { return nil }
        return try indexTailEvents(Int(text), from: "LOGBOOK_INDEX_TAIL_EVENTS", given: text)
    }

    /// `events` if the index tail may hold that many; else the refusal names `setting` and what
    /// it was `given`.
    static func indexTailEvents(_ events: Int?, from setting: String, given: String) throws -> Int {
        guard let events, indexTailEventsRange.contains(events) else {
            throw ValidationError("\(setting) must be a whole number from 0 to 10000, not \(given)")
        }
        return events
    }

    /// `LOGBOOK_WRITE_AHEAD` (ADR 0006): `0` turns the mode off, `1` on; nil when unset, which
    /// leaves `LogbookConfiguration`'s default.
    static func writeAhead(_ environment: [String: String] = ProcessInfo.processInfo.environment) throws -> Bool? {
        switch environment["LOGBOOK_WRITE_AHEAD"] ?? "" {
        case "": nil
        case "1": true
        case "0": false
        case let text: throw ValidationError("LOGBOOK_WRITE_AHEAD must be 0 or 1, not \(text)")
        }
    }
}
