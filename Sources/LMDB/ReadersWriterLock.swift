import Foundation

/// Guards the memory map: every transaction holds it shared, and growing the map holds it
/// exclusively, because `mdb_env_set_mapsize` requires that no transaction of this process is
/// active while it runs.
final class ReadersWriterLock: @unchecked Sendable {
    private let lock: UnsafeMutablePointer<pthread_rwlock_t>

    init() {
        lock = .allocate(capacity: 1)
        let status = pthread_rwlock_init(lock, nil)
        precondition(status == 0, "pthread_rwlock_init failed: \(status)")
    }

    deinit {
        pthread_rwlock_destroy(lock)
        lock.deallocate()
    }

    func withShared<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let status = pthread_rwlock_rdlock(lock)
        precondition(status == 0, "pthread_rwlock_rdlock failed: \(status)")
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }

    func withExclusive<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        let status = pthread_rwlock_wrlock(lock)
        precondition(status == 0, "pthread_rwlock_wrlock failed: \(status)")
        defer { pthread_rwlock_unlock(lock) }
        return try body()
    }
}
