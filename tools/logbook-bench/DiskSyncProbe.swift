import Foundation

/// The disk's own cost of a durable write, measured in the data directory the logs use, so the
/// log's figures have a reference from the same run: `count` times an 8 KiB `pwrite` at the end
/// of a file and `fdatasync` (the file preallocated, so no size changes), one after the other.
enum DiskSyncProbe {
    static let writeBytes = 8 << 10

    static func measure(in directory: String, count: Int = 2_000) throws -> (elapsed: Duration, latencies: Percentiles) {
        let path = (directory as NSString).appendingPathComponent("disk-probe")
        let descriptor = open(path, O_RDWR | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw BenchError.system("open \(path)", errno) }
        defer {
            close(descriptor)
            unlink(path)
        }
        let block = [UInt8](repeating: 0x5A, count: writeBytes)
        // Preallocated with real data, as the write-ahead file is: the measured syncs change no size.
        for index in 0..<count {
            guard block.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, writeBytes, off_t(index * writeBytes)) }) == writeBytes else {
                throw BenchError.system("pwrite \(path)", errno)
            }
        }
        guard fsync(descriptor) == 0 else { throw BenchError.system("fsync \(path)", errno) }
        let clock = ContinuousClock()
        var samples: [Duration] = []
        samples.reserveCapacity(count)
        let start = clock.now
        for index in 0..<count {
            let began = clock.now
            guard block.withUnsafeBytes({ pwrite(descriptor, $0.baseAddress, writeBytes, off_t(index * writeBytes)) }) == writeBytes,
                  fdatasync(descriptor) == 0 else {
                throw BenchError.system("pwrite+fdatasync \(path)", errno)
            }
            samples.append(clock.now - began)
        }
        return (clock.now - start, Percentiles(samples))
    }
}

/// Bytes this process has passed to `write`-like calls so far (`wchar` of `/proc/self/io`: what
/// `strace` would count; the benchmark writes nothing else of note while it measures). Not
/// `write_bytes`: this kernel accounts a whole large folio of the page cache per page dirtied,
/// which overstated it twentyfold here. Nil where unknown.
enum ProcessWrites {
    static func bytes() -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/io", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("wchar:") {
            return Int(line.dropFirst("wchar:".count).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
