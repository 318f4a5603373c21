import Foundation

/// What the process has cost the operating system so far.
enum ResourceUsage {
    /// Peak resident set size in KiB since the process started (`ru_maxrss`).
    ///
    /// It is a high-water mark for the whole process, so under `all` it never goes down between
    /// scenarios; pages of the memory-mapped log that were touched count too.
    static var peakResidentKiB: Int {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)  // Glibc imports the constant as an enum case
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        #if canImport(Darwin)
        return Int(usage.ru_maxrss) / 1_024  // Darwin reports bytes
        #else
        return Int(usage.ru_maxrss)  // Linux reports KiB
        #endif
    }

    /// CPU seconds (user and system, every thread) the process has used so far. A phase's
    /// difference is its work whatever else the machine runs: on a shared two-core machine the
    /// wall-clock rate of a phase says as much about the neighbours as about the code.
    static var cpuSeconds: Double {
        var usage = rusage()
        #if canImport(Glibc)
        let who = __rusage_who_t(RUSAGE_SELF.rawValue)
        #else
        let who = RUSAGE_SELF
        #endif
        guard getrusage(who, &usage) == 0 else { return 0 }
        let user = Double(usage.ru_utime.tv_sec) + Double(usage.ru_utime.tv_usec) / 1_000_000
        let system = Double(usage.ru_stime.tv_sec) + Double(usage.ru_stime.tv_usec) / 1_000_000
        return user + system
    }

    /// Current resident KiB split into anonymous memory (heap) and file-backed pages (chiefly the
    /// memory-mapped log), from /proc/self/status; nil where that file does not exist. The split
    /// tells a leak from the map simply being read.
    static var currentResidentSplitKiB: (anonymous: Int, file: Int)? {
        guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        func field(_ name: String) -> Int? {
            guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return nil }
            return line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first.flatMap { Int($0) }
        }
        guard let anonymous = field("RssAnon"), let file = field("RssFile") else { return nil }
        return (anonymous, file)
    }
}
