import Foundation

/// Watched queries' last values on disk, one file per query and user, so a launch without the
/// server shows them (stale) at once. Each file names its request and user, checked on read.
struct WatchCache: Sendable {
    let directory: URL

    struct Entry: Codable {
        let request: String
        let userId: String?
        let eTag: String?
        let value: Data
    }

    func load(request: String, userId: String?) -> Entry? {
        guard let data = FileManager.default.contents(atPath: url(request: request, userId: userId).path),
              let entry = try? JSONCoding.decoder.decode(Entry.self, from: data),
              entry.request == request, entry.userId == userId else { return nil }
        return entry
    }

    func save(_ entry: Entry) {
        // A value that cannot be kept is fetched again next launch: not worth failing the watch.
        try? DurableFile.createDirectory(directory)
        try? DurableFile.replace(url(request: entry.request, userId: entry.userId), with: JSONCoding.encoder.encode(entry))
    }

    /// Forgets every value: a sign-out leaves nothing of the account's data behind.
    func clear() {
        try? FileManager.default.removeItem(at: directory)
    }

    private func url(request: String, userId: String?) -> URL {
        // FNV-1a, 64 bits: a file name; the entry itself says which request it holds.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in "\(userId ?? "-") \(request)".utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        return directory.appendingPathComponent(String(hash, radix: 16) + ".json")
    }
}
