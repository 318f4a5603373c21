import Foundation

/// Credentials in one JSON file that only its owner may read or write (0600), replaced whole:
/// written beside it, synced, then renamed over it, so a crash leaves the old or the new one.
public struct FileCredentialStore: CredentialStore {
    public let url: URL

    public init(url: URL) { self.url = url }

    public func load() throws -> Credentials? {
        guard let data = FileManager.default.contents(atPath: url.path) else { return nil }
        return try JSONCoding.decoder.decode(Credentials.self, from: data)
    }

    public func save(_ credentials: Credentials) throws {
        try DurableFile.replace(url, with: try JSONCoding.encoder.encode(credentials))
    }

    public func clear() throws {
        do {
            try FileManager.default.removeItem(at: url)
        } catch CocoaError.fileNoSuchFile {
            // Nothing stored: already signed out.
        }
    }
}
