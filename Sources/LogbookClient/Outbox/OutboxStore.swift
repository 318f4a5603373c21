import Foundation

/// The outbox on disk: one file per queued command (`<sequence>.command`) and one per outcome
/// not yet delivered (`<sequence>.outcome`), each written whole by `DurableFile` (a torn write
/// leaves a temporary file, skipped and removed on open, and the command it would have
/// recorded is not queued: the call that queued it threw).
///
/// A command is answered by writing its outcome before removing it: a crash between the two
/// leaves both, and the outcome wins, so a command is never sent again once answered, nor lost
/// before it is. Files, not SQLite: the queue is short and read whole on start; one fsync'd
/// file per change needs no schema, no extra library and no system SQLite on Linux.
struct OutboxStore: Sendable {
    let directory: URL
    static let commandSuffix = ".command"
    static let outcomeSuffix = ".outcome"

    init(directory: URL) throws {
        self.directory = directory
        try DurableFile.createDirectory(directory)
    }

    /// What the directory holds, in sequence order; removes temporary files and the commands
    /// that have an outcome.
    func load() throws -> (commands: [QueuedCommand], outcomes: [OutboxOutcome]) {
        var commands: [QueuedCommand] = []
        var outcomes: [OutboxOutcome] = []
        for name in try FileManager.default.contentsOfDirectory(atPath: directory.path) {
            let url = directory.appendingPathComponent(name)
            if DurableFile.isTemporary(name) {
                try DurableFile.remove(url)
            } else if name.hasSuffix(Self.commandSuffix) {
                commands.append(try JSONCoding.decoder.decode(QueuedCommand.self, from: Data(contentsOf: url)))
            } else if name.hasSuffix(Self.outcomeSuffix) {
                outcomes.append(try JSONCoding.decoder.decode(OutboxOutcome.self, from: Data(contentsOf: url)))
            }
        }
        let answered = Set(outcomes.map(\.sequence))
        for command in commands where answered.contains(command.sequence) { try DurableFile.remove(url(command: command.sequence)) }
        return (commands.filter { !answered.contains($0.sequence) }.sorted { $0.sequence < $1.sequence }, outcomes.sorted { $0.sequence < $1.sequence })
    }

    func add(_ command: QueuedCommand) throws {
        try DurableFile.replace(url(command: command.sequence), with: JSONCoding.encoder.encode(command))
    }

    /// Records the command's outcome, then forgets the command.
    func answer(_ command: QueuedCommand, with outcome: OutboxOutcome) throws {
        assert(outcome.sequence == command.sequence, "an outcome answers its own command")
        try DurableFile.replace(url(outcome: outcome.sequence), with: JSONCoding.encoder.encode(outcome))
        try DurableFile.remove(url(command: command.sequence))
    }

    /// Forgets a delivered outcome.
    func delivered(_ outcome: OutboxOutcome) throws {
        try DurableFile.remove(url(outcome: outcome.sequence))
    }

    private func url(command sequence: UInt64) -> URL { directory.appendingPathComponent(name(sequence) + Self.commandSuffix) }
    private func url(outcome sequence: UInt64) -> URL { directory.appendingPathComponent(name(sequence) + Self.outcomeSuffix) }
    /// Zero-padded, so a listing sorts as the queue does.
    private func name(_ sequence: UInt64) -> String {
        let digits = String(sequence)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits
    }
}
