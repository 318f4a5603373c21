import Crypto
import EventSourcing
import Foundation

/// A key store of personal data keys in a temporary directory of its own, under a fresh secret:
/// what the tests of read models that keep personal data sealed run their engine with.
/// `remove()` deletes the directory.
struct TemporaryKeyStore {
    let keyring: PersonalDataKeyStore
    private let directory = NSTemporaryDirectory() + "projection-keys-" + UUID().uuidString

    init() throws {
        keyring = try PersonalDataKeyStore(dataDirectory: directory, secret: SymmetricKey(size: .bits256))
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: directory)
    }
}
