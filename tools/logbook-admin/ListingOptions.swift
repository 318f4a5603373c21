import ArgumentParser
import EventLog

/// `--limit` and `--json`, shared by the verbs that list events once (`events`, `stream`).
struct ListingOptions: ParsableArguments {
    @Option(help: "List at most this many events.")
    var limit: Int?

    @Flag(help: "Print one JSON object per line instead of a table.")
    var json = false

    func validate() throws {
        if let limit, limit < 1 { throw ValidationError("--limit must be at least 1") }
    }

    /// Runs `scan`, printing each event it hands over, at most `limit` of them.
    ///
    /// On a failure, what was read before it is printed first: it tells the operator where the
    /// damage starts.
    func list(_ scan: (_ limit: Int, _ emit: (RecordedEvent) -> Void) async throws -> Void) async throws {
        let output = EventOutput(json: json, flushEachLine: false)
        do {
            try await scan(limit ?? .max) { output.write($0) }
        } catch {
            output.flushBuffered()
            throw error
        }
        output.finish()
    }
}
