import EventSourcing
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The data directory's contents are the service user's alone: the log, the read models (which
/// hold personal data in the clear), the images, the keys. Every store creates its files 0600
/// and its directories 0700; this takes the group's and others' bits off what an earlier
/// release created more loosely (its images were 0644, its LMDB files 0644, its directories
/// 0755), the first time a server of this release opens the directory.
enum PrivateDataDirectory {
    /// The file that says the directory's contents were tightened: after that, every store
    /// creates its files private, so no start walks the images again.
    static let markerName = "modes-private"

    /// `tighten(below:)` unless done before in `directory` (its marker is there), then the marker.
    /// A start that stops half-way tightens again at the next, which changes only what is left.
    static func tightenOnce(below directory: String) {
        let marker = (directory as NSString).appendingPathComponent(markerName)
        guard access(marker, F_OK) != 0 else { return }
        tighten(below: directory)
        // At worst the next start walks the directory again.
        try? DurableFile.write(Data(), to: marker)
    }

    /// Takes the group's and others' permission bits off every file and directory below
    /// `directory` that this user owns; never adds a bit, and changes nothing that is not this
    /// user's. Symbolic links are neither followed nor changed. The directory itself is left as
    /// it is (the operator named it, and may share its parent's conventions); what is below it
    /// is the service's. Returns how many it changed.
    @discardableResult
    static func tighten(below directory: String) -> Int {
        var changed = 0
        let owner = geteuid()
        visit(below: directory) { path, info in
            guard info.st_uid == owner, info.st_mode & 0o077 != 0 else { return }
            if chmod(path, info.st_mode & 0o7700) == 0 { changed += 1 }
        }
        return changed
    }

    /// Calls `body` with the path and `lstat` of every entry below `directory`, depth first,
    /// descending into directories but not into symbolic links; unreadable ones are skipped.
    private static func visit(below directory: String, _ body: (String, stat) -> Void) {
        guard let stream = opendir(directory) else { return }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            guard name != ".", name != ".." else { continue }
            let path = directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                body(path, info)
                visit(below: path, body)
            case S_IFREG:
                body(path, info)
            default:
                continue
            }
        }
    }
}
