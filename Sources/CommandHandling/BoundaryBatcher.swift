import EventSourcing
import Synchronization

/// The commands waiting on each boundary in this process, and which of their tasks decides them.
///
/// One task at a time leads a boundary: it takes every command waiting there, decides them one
/// after the other, each on the state the previous ones leave, and submits them together as a
/// chain the log checks link by link (`AppendRequest.follows`). Four housemates completing tasks
/// at once then cost one fold, four decisions and one commit, where they used to fold the same
/// state, append on the same condition, and all but one fail and decide again (up to eight
/// times: under load some ran out, 409). A leader leads until its own command is done, then
/// hands the boundary to the next waiting command's task, so no request serves others forever.
final class BoundaryBatcher: Sendable {
    struct Key: Hashable, Sendable {
        let decider: ObjectIdentifier
        let boundary: Boundary
    }

    /// What a command's task is told to do.
    enum Role: Sendable {
        /// Decide the boundary's waiting commands (its own among them).
        case lead
        /// Its command was decided by another task; the outcome is in it.
        case done
    }

    private struct Line {
        var waiting: [any BatchedCommand] = []
        var hasLeader = false
    }

    private let lines = Mutex<[Key: Line]>([:])
    private let queuedCount = Atomic<Int>(0)

    /// Queues `command` on `key`; returns `.lead` at once when no task leads there, else once
    /// another task has decided the command (`.done`) or handed it the lead.
    func join(_ key: Key, _ command: some BatchedCommand) async -> Role {
        await withCheckedContinuation { (continuation: CheckedContinuation<Role, Never>) in
            let leads = lines.withLock { lines -> Bool in
                lines[key, default: Line()].waiting.append(command)
                if lines[key]!.hasLeader {
                    command.wake = continuation
                    return false
                }
                lines[key]!.hasLeader = true
                return true
            }
            if leads {
                continuation.resume(returning: .lead)
            } else {
                queuedCount.add(1, ordering: .relaxed)
            }
        }
    }

    /// Every command waiting on `key`, oldest first; the caller leads `key`.
    func takeAll(_ key: Key) -> [any BatchedCommand] {
        lines.withLock { lines in
            precondition(lines[key]?.hasLeader == true, "only the leader takes commands")
            defer { lines[key]!.waiting.removeAll() }
            return lines[key]!.waiting
        }
    }

    /// Puts `commands` back at the front of `key`'s line, to be decided again on a fresh fold.
    func requeue(_ key: Key, _ commands: [any BatchedCommand]) {
        guard !commands.isEmpty else { return }
        lines.withLock { lines in lines[key]!.waiting.insert(contentsOf: commands, at: 0) }
    }

    /// The leader is done: the next waiting command's task leads `key`, or no one does.
    func handOff(_ key: Key) {
        let next = lines.withLock { lines -> (any BatchedCommand)? in
            guard let first = lines[key]!.waiting.first else {
                lines[key] = nil
                return nil
            }
            return first
        }
        next?.resume(.lead)
    }

    /// Commands that have had to wait behind another on their boundary so far.
    var queued: Int { queuedCount.load(ordering: .relaxed) }
}

/// A command in a boundary's line, whatever its decider.
protocol BatchedCommand: AnyObject, Sendable {
    /// Resumes the command's task, waiting in `join`; set under the batcher's lock.
    var wake: CheckedContinuation<BoundaryBatcher.Role, Never>? { get set }
}

extension BatchedCommand {
    /// Tells the waiting task its role. A command whose own task leads has nothing to wake.
    func resume(_ role: BoundaryBatcher.Role) {
        guard let wake else { return }
        self.wake = nil
        wake.resume(returning: role)
    }
}
