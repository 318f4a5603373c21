import Accounts
import EventLog
import EventSourcing
import Foundation
import PostgresEventLog
import Projections
import Synchronization

/// Carries out on this server every erasure in the log (ADR 0004, 0005): destroys the keys each
/// `account.erased` names and rebuilds this server's read models, which may hold the erased data
/// in plain text. The server that took the `DELETE /v1/me` and every other server sharing its log
/// do the same, each for its own read models and its own cache of keys; the key storage takes a
/// second erasure of a subject as a no-op.
///
/// Live, it is told of every projected batch. At start, before the projection runner, `recover`
/// finishes what a crash interrupted: `keys/erasures.handled` holds the position up to which
/// every erasure has had its keys destroyed and its scrub recorded as owed (or done).
final class ErasureFollower: ProjectionObserver {
    /// The file's name in the key directory.
    static let fileName = "erasures.handled"
    /// How many erasures `recover` reads from the log at a time.
    static let recoveryPageEvents = 1_000

    private let keyring: PersonalDataKeyStore
    private let scrub: ReadModelScrub
    private let startScrub: @Sendable () -> Void
    private let file: String
    /// Up to where every erasure was carried out; the lock also makes one carry-out at a time.
    private let handled: Mutex<UInt64>

    init(dataDirectory: String, keyring: PersonalDataKeyStore, scrub: ReadModelScrub, startScrub: @escaping @Sendable () -> Void) {
        self.keyring = keyring
        self.scrub = scrub
        self.startScrub = startScrub
        file = ((dataDirectory as NSString).appendingPathComponent(PersonalDataKeyStore.directoryName) as NSString)
            .appendingPathComponent(Self.fileName)
        let stored = FileManager.default.contents(atPath: file).flatMap { UInt64(String(decoding: $0, as: UTF8.self)) }
        handled = Mutex(stored ?? 0)
    }

    /// The position up to which every erasure was carried out here.
    var handledPosition: UInt64 { handled.withLock { $0 } }

    /// A live batch is in the read models: any erasure in it was decoded with whatever key this
    /// server still had cached (another server's erasure reaches it only now), so its read models
    /// are scrubbed. A failure leaves the position behind, for `recover` at the next start.
    func committed(_ events: [ProjectedEvent]) {
        let erasures = events.compactMap { event -> (position: UInt64, erased: AccountEvent.Erased)? in
            guard event.type == AccountEvent.Erased.typeName, case .erased(let erased)? = try? event.decoded(as: AccountEvent.self) else {
                return nil
            }
            return (event.position, erased)
        }
        guard !erasures.isEmpty else { return }
        try? carryOut(erasures, scrubbing: true)
    }

    func swapped(_ name: String) {}

    /// Carries out the erasures appended since the handled position, before the projection
    /// runner starts. Those the read models already hold (up to `readModelsReach`) owe a scrub;
    /// for the others, the runner will decode them with their keys already gone.
    func recover(log: EventLogBackend, readModelsReach: UInt64) async throws {
        var after = handledPosition
        var erasures: [(position: UInt64, erased: AccountEvent.Erased)] = []
        while true {
            let page = try await log.read(matching: EventQuery(types: [AccountEvent.Erased.typeName]), after: after, limit: Self.recoveryPageEvents)
            for event in page.events {
                guard case .erased(let erased) = try AccountEvent.decode(typeName: event.type, schemaVersion: event.schemaVersion, data: event.data) else {
                    continue
                }
                erasures.append((event.position, erased))
            }
            guard let last = page.events.last else { break }
            after = last.position
        }
        guard !erasures.isEmpty else { return }
        try carryOut(erasures, scrubbing: erasures.contains { $0.position <= readModelsReach })
    }

    /// Records the scrub as owed (first: from then on a crash leaves it to the next start),
    /// destroys the keys, moves the handled position past the erasures, then starts the scrub.
    private func carryOut(_ erasures: [(position: UInt64, erased: AccountEvent.Erased)], scrubbing: Bool) throws {
        try handled.withLock { handled in
            let fresh = erasures.filter { $0.position > handled }
            guard let last = fresh.last?.position else { return }
            if scrubbing { try scrub.markPending() }
            for (_, erased) in fresh {
                for subject in erased.subjects { try keyring.erase(subject) }
            }
            try DurableFile.write(Data(String(last).utf8), to: file)
            handled = last
        }
        if scrubbing { startScrub() }
    }
}
