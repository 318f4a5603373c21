import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// How many pages of a file the page cache holds dirty (written, not yet handed to the device),
/// read from the kernel's own page flags: the file is mapped, each page touched, its frame
/// looked up in `/proc/self/pagemap` and its flags in `/proc/kpageflags`. Both need root (CI
/// runs as root); elsewhere `observable` is false and the tests that need it are skipped.
enum DirtyPages {
    static let pageBytes = Int(sysconf(Int32(_SC_PAGESIZE)))
    /// `KPF_DIRTY` in the kernel's `include/uapi/linux/kernel-page-flags.h`.
    private static let dirtyFlag: UInt64 = 1 << 4
    private static let frameMask: UInt64 = (1 << 55) - 1
    private static let presentFlag: UInt64 = 1 << 63

    static var observable: Bool {
        FileManager.default.isReadableFile(atPath: "/proc/kpageflags") && getuid() == 0
    }

    enum Failure: Error {
        case unreadable(String)
        case pageNotPresent(Int)
    }

    /// The dirty pages of the file at `path`.
    static func count(path: String) throws -> Int {
        let file = open(path, O_RDONLY | O_CLOEXEC)
        guard file >= 0 else { throw Failure.unreadable(path) }
        defer { close(file) }
        var status = stat()
        guard fstat(file, &status) == 0 else { throw Failure.unreadable(path) }
        let pages = (Int(status.st_size) + pageBytes - 1) / pageBytes
        guard pages > 0 else { return 0 }
        guard let mapping = mmap(nil, pages * pageBytes, PROT_READ, MAP_SHARED, file, 0), mapping != MAP_FAILED else {
            throw Failure.unreadable(path)
        }
        defer { munmap(mapping, pages * pageBytes) }
        let pagemap = open("/proc/self/pagemap", O_RDONLY | O_CLOEXEC), flags = open("/proc/kpageflags", O_RDONLY | O_CLOEXEC)
        defer { close(pagemap); close(flags) }
        guard pagemap >= 0, flags >= 0 else { throw Failure.unreadable("/proc/self/pagemap or /proc/kpageflags") }
        var dirty = 0
        for page in 0..<pages {
            let address = mapping + page * pageBytes
            _ = address.load(as: UInt8.self)  // faults the page in, so that it has a frame
            var entry: UInt64 = 0
            guard pread(pagemap, &entry, 8, off_t(UInt(bitPattern: address) / UInt(pageBytes) * 8)) == 8 else {
                throw Failure.unreadable("/proc/self/pagemap")
            }
            guard entry & presentFlag != 0, entry & frameMask != 0 else { throw Failure.pageNotPresent(page) }
            var pageFlags: UInt64 = 0
            guard pread(flags, &pageFlags, 8, off_t((entry & frameMask) * 8)) == 8 else { throw Failure.unreadable("/proc/kpageflags") }
            if pageFlags & dirtyFlag != 0 { dirty += 1 }
        }
        return dirty
    }
}
