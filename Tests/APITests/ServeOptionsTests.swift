import ArgumentParser
import EventLog
import Foundation
import Testing
@testable import API
@testable import logbook

/// `logbook serve`'s image-collection options reach the configuration, and values that would
/// never collect, collect uploads before they can be shown, or overflow are refused.
@Suite("logbook serve options")
struct ServeOptionsTests {
    @Test func theDefaultsAreHourlyWithADayOfGrace() throws {
        let configuration = try Serve.parse([]).configuration()
        #expect(configuration.blobCollectionInterval == .seconds(3_600))
        #expect(configuration.blobGracePeriod == .seconds(24 * 3_600))
    }

    @Test func theOptionsSetTheIntervalAndTheGracePeriod() throws {
        let configuration = try Serve.parse(["--blob-gc-interval-seconds", "90", "--blob-grace-hours", "2"]).configuration()
        #expect(configuration.blobCollectionInterval == .seconds(90))
        #expect(configuration.blobGracePeriod == .seconds(7_200))
        let widest = try Serve.parse(["--blob-gc-interval-seconds", "31536000", "--blob-grace-hours", "8760"]).configuration()
        #expect(widest.blobCollectionInterval == .seconds(31_536_000) && widest.blobGracePeriod == .seconds(31_536_000))
    }

    /// The log's write-ahead mode (ADR 0006) is on unless the flag or the environment says
    /// otherwise; the flag wins over the environment, and a value that is neither 0 nor 1 is
    /// refused rather than read as either.
    @Test func theWriteAheadModeIsOnByDefaultAndTheFlagOrTheEnvironmentTurnsItOff() throws {
        #expect(try Serve.parse([]).writeAhead == nil)
        #expect(try ServerEnvironment.writeAhead([:]) == nil, "unset: the configuration's default")
        #expect(LogbookConfiguration(dataDirectory: "data").writeAhead, "one default, the server's and the configuration's")
        #expect(try ServerEnvironment.writeAhead(["LOGBOOK_WRITE_AHEAD": "1"]) == true)
        #expect(try ServerEnvironment.writeAhead(["LOGBOOK_WRITE_AHEAD": "0"]) == false)
        for text in ["yes", "true", "2", " 1"] {
            #expect(throws: ValidationError.self) { try ServerEnvironment.writeAhead(["LOGBOOK_WRITE_AHEAD": text]) }
        }
        #expect(try !Serve.parse(["--no-write-ahead"]).configuration().writeAhead)
        #expect(try Serve.parse(["--write-ahead"]).configuration().writeAhead)
        #expect(try !Serve.parse(["--write-ahead", "--no-write-ahead"]).configuration().writeAhead, "the last one given")
    }

    /// The index tail (docs/decisions/0017) is the log's own default unless the option or the
    /// environment sets a size; the option wins, and a size outside 0…10,000 or not a number is
    /// refused. A runtime on a configuration that sets none opens its log with that default.
    @Test func theIndexTailIsTheLogsDefaultUnlessTheOptionOrTheEnvironmentSizesIt() throws {
        #expect(try ServerEnvironment.indexTailEvents([:]) == nil, "unset: the log's default")
        #expect(try ServerEnvironment.indexTailEvents(["LOGBOOK_INDEX_TAIL_EVENTS": "0"]) == 0)
        #expect(try ServerEnvironment.indexTailEvents(["LOGBOOK_INDEX_TAIL_EVENTS": "1024"]) == 1_024)
        for text in ["-1", "10001", "lots", "1e3", " 5"] {
            #expect(throws: ValidationError.self) { try ServerEnvironment.indexTailEvents(["LOGBOOK_INDEX_TAIL_EVENTS": text]) }
        }
        #expect(try Serve.parse(["--index-tail-events", "256"]).configuration().indexTailEventsMax == 256)
        for bad in ["-1", "10001"] {
            #expect(throws: (any Error).self) { try Serve.parse(["--index-tail-events", bad]) }
        }
        let directory = NSTemporaryDirectory() + "serve-options-" + UUID().uuidString
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let runtime = try LogbookRuntime.forTests(on: directory, unsafeNoSync: true)
        defer { runtime.close() }
        #expect(runtime.log.lmdb.options.indexTail.eventsMax == IndexTailPolicy().eventsMax)
        #expect(IndexTailPolicy().eventsMax > 0, "on by default")
    }

    @Test(arguments: [
        ["--blob-gc-interval-seconds", "0"], ["--blob-gc-interval-seconds", "-5"], ["--blob-gc-interval-seconds", "31536001"],
        ["--blob-gc-interval-seconds", "9223372036854775807"], ["--blob-gc-interval-seconds", "1.5"], ["--blob-gc-interval-seconds", "x"],
        ["--blob-grace-hours", "0"], ["--blob-grace-hours", "-1"], ["--blob-grace-hours", "8761"],
        ["--blob-grace-hours", "9223372036854775807"], ["--blob-grace-hours", ""],
    ])
    func outOfRangeOrNonNumericValuesAreRefused(_ arguments: [String]) {
        #expect(throws: (any Error).self) { try Serve.parse(arguments) }
    }
}
