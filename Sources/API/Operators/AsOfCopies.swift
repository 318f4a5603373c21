import EventLog
import PostgresEventLog
import EventSourcing
import Projections

/// The household and quiz read models as of log positions, for the operators' as-of routes:
/// built into temporary copies (`PointInTime`), the last `copiesMax` kept by position so that
/// an operator paging through one moment does not rebuild it per request. Requests for one
/// position while it builds share the build.
actor AsOfCopies {
    /// One position's copy and the query types over it.
    struct Copy: Sendable {
        let pointInTime: PointInTime<EventLogBackend>
        let household: HouseholdQueries<EventLogBackend>
        let quiz: QuizQueries<EventLogBackend>
    }

    /// Copies kept at most. Each holds the two apps' read models up to its position on disk in
    /// the temporary directory, removed when the copy is dropped.
    static var copiesMax: Int { 4 }

    private let log: EventLogBackend
    private let personalData: (any PersonalDataKeyring)?
    /// Most recently asked last.
    private var copies: [(position: UInt64, build: Task<Copy, any Error>)] = []

    init(log: EventLogBackend, personalData: (any PersonalDataKeyring)?) {
        self.log = log
        self.personalData = personalData
    }

    /// The copy as of `position`, built if it is not kept; throws `PointInTimeError`.
    func copy(at position: UInt64) async throws -> Copy {
        let build: Task<Copy, any Error>
        if let index = copies.firstIndex(where: { $0.position == position }) {
            build = copies.remove(at: index).build
        } else {
            let (log, personalData) = (log, personalData)
            // Detached: the build reads the log and writes LMDB, off the caller's executor.
            build = Task.detached {
                let copy = try await PointInTime.build(
                    log: log, through: position, projections: LogbookProjections.household + LogbookProjections.quiz,
                    personalData: personalData)
                return Copy(pointInTime: copy, household: HouseholdQueries(engine: copy.engine), quiz: QuizQueries(engine: copy.engine))
            }
        }
        copies.append((position, build))
        if copies.count > Self.copiesMax { copies.removeFirst(copies.count - Self.copiesMax) }
        do {
            return try await build.value
        } catch {
            // Not kept: a refused position (beyond the head) may be valid later.
            copies.removeAll { $0.position == position }
            throw error
        }
    }
}
