import EventLog
import EventSourcing
import Foundation

extension HouseholdQueries {
    /// A page of the house's history, newest first: up to `limit` items (50 when nil) after `cursor` (the
    /// previous page's `next`; nil for the first page). The read model lists where the
    /// completions are; each item is read from the log, as its event says, the completer's name
    /// opened (an erased user's reads as erased).
    public func history(house houseId: String, limit: Int?, cursor: String?) async throws(ListQueryError) -> HistoryPage {
        let prefix = HouseholdKeys.housePrefix(houseId)
        let request = try ListPage.request(limit: limit, cursor: cursor, prefix: prefix)
        do {
            let page = try engine.read(HouseholdProjections.history) {
                try $0.page(UInt64.self, in: HouseholdHistoryProjection.history, prefix: prefix, request)
            }
            let items = try await engine.logItems(at: page.entries.map(\.value), make: historyItem)
            return HistoryPage(items: items, next: page.next)
        } catch {
            throw .readModel(error)
        }
    }

    /// The completion `record` holds. The read model lists only completions' positions, so
    /// another event there is a fault of the service.
    private func historyItem(_ record: RecordedEvent) throws(ReadModelError) -> HistoryItem {
        let key = String(record.position)
        let decoded = try ReadModelError.openingPersonalData("the log", key: key) {
            try HouseholdProjectionInput.decode(typeName: record.type, schemaVersion: record.schemaVersion, data: record.data, opening: engine.personalData)
        }
        guard case .completion(let p)? = decoded else {
            throw .undecodable(table: "the log", key: key, reason: "\(record.type) is not a completion")
        }
        return HistoryItem(
            taskId: p.taskId, taskName: p.taskName, roomId: p.roomId, roomName: p.roomName, userId: p.userId,
            displayName: try openedName(p.displayName, of: p.userId), points: p.points, doneAt: p.completedAt, position: record.position)
    }

    /// A member's name as `houses`, `history` and `tasks` keep it (as the log stores it: sealed),
    /// opened with the engine's keyring; an erased user's reads as `PersonalDataSeal.deletedUser`
    /// from the moment the key is gone (ADR 0009, 0018). `what` names it in an error.
    func openedName(_ stored: String, of userId: String, what: String = "a completer's name") throws(ReadModelError) -> String {
        try engine.opened(stored, of: userId, erased: PersonalDataSeal.deletedUser, what: what)
    }
}
