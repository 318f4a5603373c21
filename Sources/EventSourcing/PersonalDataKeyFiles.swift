import Foundation
import Synchronization

/// The data keys of one data directory, one file per subject in `data/keys/`: `<id>.key` holds
/// the sealed key, `<id>.erased` (empty) marks an erasure. Every change is durable (`DurableFile`).
public final class PersonalDataKeyFiles: PersonalDataKeyStorage {
    /// The directory's name in the data directory.
    public static let directoryName = "keys"

    /// The directory holding the files.
    public let directory: String
    /// Makes "is there one, else write ours" one step within this process.
    private let creating = Mutex(())

    /// The files in `<dataDirectory>/keys`, created (mode 0700) when missing.
    public init(dataDirectory: String) throws(PersonalDataError) {
        directory = (dataDirectory as NSString).appendingPathComponent(Self.directoryName)
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw .keyStore(path: directory, reason: "\(error)")
        }
    }

    public func entry(of subject: String) throws -> StoredDataKey? {
        if FileManager.default.fileExists(atPath: path(subject, "erased")) { return .erased }
        return FileManager.default.contents(atPath: path(subject, "key")).map { .sealed([UInt8]($0)) }
    }

    public func create(_ sealed: [UInt8], for subject: String) throws -> StoredDataKey {
        try creating.withLock { _ throws -> StoredDataKey in
            if let found = try entry(of: subject) { return found }
            try DurableFile.write(Data(sealed), to: path(subject, "key"))
            return .sealed(sealed)
        }
    }

    public func erase(_ subject: String) throws {
        try creating.withLock { _ throws in
            try DurableFile.write(Data(), to: path(subject, "erased"))
            try DurableFile.remove(path(subject, "key"))
        }
    }

    /// Removes `subject`'s entry (both files), once a shared store holds it.
    public func remove(_ subject: String) throws {
        try creating.withLock { _ throws in
            try DurableFile.remove(path(subject, "key"))
            try DurableFile.remove(path(subject, "erased"))
        }
    }

    /// Every subject with an entry here, with it: what a server moving its keys to a shared
    /// store takes along.
    public func entries() throws -> [(subject: String, entry: StoredDataKey)] {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory)
        } catch {
            throw PersonalDataError.keyStore(path: directory, reason: "\(error)")
        }
        var subjects = Set<String>()
        for name in names where name.hasSuffix(".key") || name.hasSuffix(".erased") {
            subjects.insert(String(name[..<name.lastIndex(of: ".")!]))
        }
        return try subjects.sorted().compactMap { subject in try entry(of: subject).map { (subject, $0) } }
    }

    // MARK: Files

    private func path(_ subject: String, _ suffix: String) -> String {
        (directory as NSString).appendingPathComponent("\(subject).\(suffix)")
    }
}
