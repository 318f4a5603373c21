import Foundation

/// A value behind a lock, for the few mutable things shared across tasks that need no `await`
/// inside (NSLock rather than `Synchronization.Mutex`, which would make the package iOS 18 only).
final class Locked<Value>: @unchecked Sendable {
    private var value: Value
    private let lock = NSLock()

    init(_ value: Value) { self.value = value }

    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
