import ArgumentParser
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
