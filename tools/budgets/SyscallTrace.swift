import Foundation

/// What the kernel saw of each measured window, read from `strace -f -y` output: bytes written,
/// syncs and writeback starts per file, for every thread of the process. Only the lines of the
/// syscalls the parent asked strace for reach here (`SyscallTrace.traced`). A write through a
/// descriptor opened with `O_DSYNC` or `O_SYNC` (LMDB writes its meta page so) is a sync too.
struct SyscallTrace {
    /// The syscalls to trace: the writes and syncs counted, and the markers' `access`.
    static let traced = "access,faccessat,faccessat2,open,openat,write,pwrite64,writev,pwritev,pwritev2,fsync,fdatasync,sync_file_range,msync"
    private static let writes: Set<Substring> = ["write", "pwrite64", "writev", "pwritev", "pwritev2"]
    private static let syncs: Set<Substring> = ["fsync", "fdatasync", "msync"]

    /// One window's writes and syncs, by the path of the file they went to.
    struct Window {
        var bytesWritten: [String: Int] = [:]
        var syncs: [String: Int] = [:]
        /// `sync_file_range` calls: the kernel told to start writing, nothing waited for.
        var writebackStarts: [String: Int] = [:]

        func bytes(where matches: (String) -> Bool) -> Int { Self.sum(bytesWritten, matches) }
        func syncCount(where matches: (String) -> Bool) -> Int { Self.sum(syncs, matches) }
        func writebackStartCount(where matches: (String) -> Bool) -> Int { Self.sum(writebackStarts, matches) }

        private static func sum(_ counts: [String: Int], _ matches: (String) -> Bool) -> Int {
            counts.filter { matches($0.key) }.values.reduce(0, +)
        }
    }

    private(set) var windows: [String: Window] = [:]

    /// Reads strace's output. With `-f`, a call another thread interrupts comes in two lines,
    /// `<unfinished ...>` and `<... name resumed>`, joined here by thread id.
    init(parsing output: String) {
        var unfinished: [Substring: Substring] = [:]
        var open: String?
        // Descriptors opened to write synchronously, by number as `-y` prints them (`9</path>`).
        var synchronous: Set<Substring> = []
        for line in output.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            let thread = line[..<space]
            // strace pads the thread id to a width: `812  openat(…)`.
            var call = line[line.index(after: space)...].drop { $0 == " " }
            if call.hasPrefix("<... ") {
                guard let start = unfinished.removeValue(forKey: thread), let close = call.firstIndex(of: ">") else { continue }
                call = start + call[call.index(after: close)...]
            } else if call.hasSuffix("<unfinished ...>") {
                unfinished[thread] = call.dropLast("<unfinished ...>".count)
                continue
            }
            guard let parenthesis = call.firstIndex(of: "(") else { continue }
            let name = call[..<parenthesis]
            let arguments = call[call.index(after: parenthesis)...]
            if name.hasPrefix("access") || name.hasPrefix("faccessat") {
                guard let marker = arguments.range(of: MeasuredWindow.markerPrefix) else { continue }
                let rest = arguments[marker.upperBound...].prefix { $0 != "\"" }
                if rest.hasPrefix("begin/") { open = String(rest.dropFirst("begin/".count)) }
                if rest.hasPrefix("end/") { open = nil }
                continue
            }
            if name == "open" || name == "openat" {
                if arguments.contains("O_DSYNC") || arguments.contains("O_SYNC"), let equals = call.range(of: " = ", options: .backwards) {
                    synchronous.insert(call[equals.upperBound...].prefix { $0 != "<" })
                }
                continue
            }
            guard let window = open, let path = Self.path(arguments) else { continue }
            if Self.writes.contains(name), let result = Self.result(call), result > 0 {
                windows[window, default: Window()].bytesWritten[path, default: 0] += result
                if synchronous.contains(arguments.prefix { $0 != "<" }) { windows[window, default: Window()].syncs[path, default: 0] += 1 }
            } else if Self.syncs.contains(name) {
                windows[window, default: Window()].syncs[path, default: 0] += 1
            } else if name == "sync_file_range" {
                windows[window, default: Window()].writebackStarts[path, default: 0] += 1
            }
        }
    }

    /// The file of a call's first argument, as `-y` prints it: `5</tmp/x/log/data.mdb>`.
    private static func path(_ arguments: Substring) -> String? {
        guard let open = arguments.firstIndex(of: "<"), let close = arguments[open...].firstIndex(of: ">") else { return nil }
        return String(arguments[arguments.index(after: open)..<close])
    }

    /// What the call returned: the number after its last ` = `; nil for an error.
    private static func result(_ call: Substring) -> Int? {
        guard let equals = call.range(of: " = ", options: .backwards) else { return nil }
        return Int(call[equals.upperBound...].prefix { $0 != " " })
    }
}
