import Crypto
import Foundation
import Synchronization

/// The key store of personal data keys: one 256-bit data key per subject, kept sealed
/// (ChaChaPoly) under a key derived from the server's secret in a `PersonalDataKeyStorage` (the
/// data directory's `keys/`, or a PostgreSQL table shared by the servers of one log), so no plain
/// data key is ever stored. Erasing a subject destroys its key and records the erasure so no new
/// key is made for it; with the key gone, every field ever sealed for it reads as erased
/// (crypto-shredding, ADR 0004).
public final class PersonalDataKeyStore: PersonalDataKeyring {
    /// The directory of the data directory that holds its keys when the storage is local, and
    /// the server's other erasure bookkeeping whatever the storage.
    public static let directoryName = PersonalDataKeyFiles.directoryName

    /// Where the sealed keys are.
    public let storage: any PersonalDataKeyStorage
    private let sealingKey: SymmetricKey
    private let tagKey: SymmetricKey
    /// Keys read or made so far, and subjects known erased: the storage is read once per
    /// subject. The lock is not held across the storage's work (a round trip to PostgreSQL), so
    /// a miss never holds up the hits; `create` is what makes two makers agree on one key.
    /// Also the texts opened for reading, which an erasure forgets under the same lock.
    private let cache = Mutex(Cache())

    private struct Cache {
        var keys: [String: SymmetricKey] = [:]
        var erased: Set<String> = []
        /// Subject → sealed text → the text, as `openForReading` opened it.
        var opened: [String: [String: String]] = [:]
        /// What `opened` takes: its texts' UTF-8 bytes and `openedTextOverheadBytes` per entry.
        var openedBytes = 0
    }

    /// What the texts kept opened may take at most, in bytes of the heap (their UTF-8 bytes and
    /// `openedTextOverheadBytes` each). Read models keep personal data sealed (ADR 0009) and their
    /// queries open it: a page of 30 news items is 90 openings, which took 38% of the route's
    /// rate (docs/benchmarks.md). Readers read the same pages again and again, so what was opened
    /// is kept; past this budget all of it is forgotten at once, which keeps the bound without
    /// any bookkeeping per read.
    public static var openedTextsBytesMax: Int { 32 << 20 }
    /// What one kept text takes beyond its bytes, about: two string buffers' headers (32 bytes
    /// each) and a slot of the dictionary, rounded up; a name is often smaller than this.
    public static var openedTextOverheadBytes: Int { 128 }

    /// The root of the store's keys derived from the server's secret key (`LOGBOOK_SECRET_KEY`
    /// or `secret.key`): the server and the operator tools must derive it the same way.
    public static func rootKey(serverSecret: SymmetricKey) -> SymmetricKey {
        HKDF<SHA256>.deriveKey(inputKeyMaterial: serverSecret, info: Data("logbook personal data v1".utf8), outputByteCount: 32)
    }

    /// The store over `storage`, its keys sealed under subkeys of `secret`.
    public init(storage: any PersonalDataKeyStorage, secret: SymmetricKey) {
        self.storage = storage
        sealingKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("logbook personal-data key sealing v1".utf8), outputByteCount: 32)
        tagKey = HKDF<SHA256>.deriveKey(inputKeyMaterial: secret, info: Data("logbook blind tags v1".utf8), outputByteCount: 32)
    }

    /// The store in `<dataDirectory>/keys`, its keys sealed under subkeys of `secret`.
    public convenience init(dataDirectory: String, secret: SymmetricKey) throws(PersonalDataError) {
        self.init(storage: try PersonalDataKeyFiles(dataDirectory: dataDirectory), secret: secret)
    }

    public func dataKey(of subject: String, create: Bool) throws -> SymmetricKey? {
        try Self.check(subject)
        let cached = cache.withLock { cache -> SymmetricKey?? in
            if let key = cache.keys[subject] { return .some(key) }
            return cache.erased.contains(subject) ? .some(nil) : nil
        }
        if let cached { return cached }
        var found = try storage.entry(of: subject)
        if found == nil, create {
            found = try storage.create(try seal(SymmetricKey(size: .bits256), of: subject), for: subject)
        }
        let key: SymmetricKey?
        switch found {
        case nil: return nil
        case .erased?: key = nil
        case .sealed(let sealed)?: key = try open(sealed, of: subject)
        }
        return cache.withLock { cache in
            // An erasure that came in meanwhile wins over what the storage said before it.
            if cache.erased.contains(subject) { return nil }
            if let key { cache.keys[subject] = key } else { cache.erased.insert(subject) }
            return key
        }
    }

    /// `stored` opened, from the texts kept opened when it was opened before. A text opened is
    /// kept unless the subject's erasure came in meanwhile (which wins, as in `dataKey`): after
    /// `erase` returns, no reader gets the subject's texts from here.
    public func openForReading(_ stored: String, subject: String) throws -> String? {
        if let text = cache.withLock({ $0.opened[subject]?[stored] }) { return text }
        guard let text = try PersonalDataSeal.open(stored, subject: subject, keyring: self) else { return nil }
        guard stored.utf8.starts(with: PersonalDataSeal.prefix.utf8) else { return text }  // plain: nothing to keep
        let bytes = Self.openedBytes(stored, text)
        cache.withLock { cache in
            guard !cache.erased.contains(subject), bytes <= Self.openedTextsBytesMax else { return }
            if cache.openedBytes + bytes > Self.openedTextsBytesMax {
                cache.opened.removeAll()
                cache.openedBytes = 0
            }
            if cache.opened[subject, default: [:]].updateValue(text, forKey: stored) == nil { cache.openedBytes += bytes }
        }
        return text
    }

    /// The subjects erased here or found erased in the storage (`erase` records its subject
    /// before it returns); `erased` only grows, so its size is the count.
    public var knownErasures: Int? {
        cache.withLock { $0.erased.count }
    }

    /// What `text`, opened from `stored`, takes while it is kept.
    static func openedBytes(_ stored: String, _ text: String) -> Int {
        stored.utf8.count + text.utf8.count + openedTextOverheadBytes
    }

    /// How many texts are kept opened, and their bytes (tests).
    var openedTexts: (count: Int, bytes: Int) {
        cache.withLock { cache in (cache.opened.values.reduce(0) { $0 + $1.count }, cache.openedBytes) }
    }

    public func blindTag(_ purpose: String, _ value: String) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: Data((purpose + "\u{0}" + value).utf8), using: tagKey)
        return code.map { String(format: "%02x", $0) }.joined()
    }

    /// Destroys `subject`'s key in the storage, durably, and forgets it here at once (first, so
    /// no read racing the deletion puts it back). Idempotent: a subject the storage already has
    /// as erased (another server's erasure) is only forgotten here.
    public func erase(_ subject: String) throws {
        try Self.check(subject)
        cache.withLock { cache in
            cache.keys[subject] = nil
            cache.erased.insert(subject)
            for (stored, text) in cache.opened.removeValue(forKey: subject) ?? [:] {
                cache.openedBytes -= Self.openedBytes(stored, text)
            }
        }
        if try storage.entry(of: subject) != .erased { try storage.erase(subject) }
    }

    /// Whether `subject` was erased, as the storage says now.
    public func isErased(_ subject: String) throws -> Bool {
        try Self.check(subject)
        return try storage.entry(of: subject) == .erased
    }

    /// Moves every key and erasure of `source` into this store's storage (a server whose log
    /// moved to a shared PostgreSQL takes its data directory's keys along) and returns how many
    /// entries moved. The sealed bytes move as they are, so both must be sealed under the same
    /// secret: a key that does not open is refused, not spread. An entry leaves `source` once the
    /// storage holds it (or holds the subject erased), so no copy of an erased key outlives the
    /// erasure; a subject with another key there already stays in `source`, for an operator.
    public func moveEntries(from source: PersonalDataKeyFiles) throws -> Int {
        var moved = 0
        for (subject, entry) in try source.entries() {
            try Self.check(subject)
            switch entry {
            case .sealed(let sealed):
                _ = try open(sealed, of: subject)
                let held = try storage.create(sealed, for: subject)
                guard held == entry || held == .erased else { continue }
            case .erased:
                try erase(subject)
            }
            try source.remove(subject)
            moved += 1
        }
        return moved
    }

    // MARK: Sealing

    /// Ids of users are UUIDs; anything that could leave a directory or a table's key is refused.
    private static func check(_ subject: String) throws(PersonalDataError) {
        let allowed = subject.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || byte == 0x2D || byte == 0x5F
        }
        guard allowed, !subject.isEmpty, subject.utf8.count <= 128 else { throw .invalidSubject(subject) }
    }

    private func seal(_ key: SymmetricKey, of subject: String) throws -> [UInt8] {
        try key.withUnsafeBytes { bytes in
            [UInt8](try ChaChaPoly.seal(Data(bytes), using: sealingKey, authenticating: Data(subject.utf8)).combined)
        }
    }

    private func open(_ sealed: [UInt8], of subject: String) throws -> SymmetricKey {
        guard let box = try? ChaChaPoly.SealedBox(combined: sealed),
              let bytes = try? ChaChaPoly.open(box, using: sealingKey, authenticating: Data(subject.utf8)),
              bytes.count == 32 else {
            throw PersonalDataError.keyStore(
                path: "the key of \(subject)", reason: "it does not open with the server's secret key (another secret, or altered)")
        }
        return SymmetricKey(data: bytes)
    }
}
