import Foundation

/// The rules an append meets before its condition is searched, shared by every backend's
/// applier (LMDB's `BatchApplier`, PostgreSQL's batch): each looks up commands and stream
/// versions its own way, in the log and its batch so far, and the rules stay one.
package enum AppendAdmission: Equatable {
    /// The command already appended: answer its outcome, append nothing.
    case replay(AppendResult)
    /// Refused before any search.
    case refused(EventLogError)
    /// Search for the condition's events after `conditionStart` (nil: no condition), then append.
    case searchCondition(after: UInt64?)

    /// Decides `request` from `command` (the stored entry of a command id, if any) and `version`
    /// (a stream's last version, nil when it has none).
    package static func decide(
        _ request: AppendRequest, command: (UUID) throws -> CommandEntry?, version: (String) throws -> UInt64?
    ) rethrows -> AppendAdmission {
        let commandID = request.metadata.commandID
        if let known = try command(commandID) {
            // The same id for another command: answering with the first one's outcome would
            // tell this caller what another command did, and do nothing it asked.
            if let fingerprint = request.metadata.fingerprint, let recorded = known.fingerprint, recorded != fingerprint {
                return .refused(.commandIDReused(commandID: commandID))
            }
            return .replay(known.replay)
        }
        for (streamID, expected) in request.expectedVersions where expected != .any {
            let actual = try version(streamID)
            if !expected.isSatisfied(by: actual) {
                return .refused(.wrongExpectedVersion(streamID: streamID, expected: expected, actual: actual))
            }
        }
        var conditionStart = request.condition?.after
        if let predecessor = request.follows {
            // Its events are ones the decision saw: by induction over the chain, nothing else
            // matching the condition lies before its end, so the search starts there. A
            // predecessor already in the log before the decision's fold is one the chain did
            // not append (it was a replay), so the decision saw events that never happened.
            guard let stored = try command(predecessor), stored.firstPosition > (request.condition?.after ?? 0) else {
                return .refused(.predecessorMissing(commandID: predecessor))
            }
            conditionStart = conditionStart.map { max($0, stored.lastPosition) }
        }
        return .searchCondition(after: conditionStart)
    }
}
