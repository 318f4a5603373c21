import EventLog
import EventSourcing

extension ProjectionEngine {
    /// `stored`, personal data of `subject` that a read model keeps as the log stores it (sealed,
    /// or plain if written before sealing; ADR 0009), opened with `personalData` (which
    /// may keep it opened for the next reader: `openForReading`): `erased` once the subject's key
    /// is destroyed, from that moment on and with no rebuild. A key store
    /// that does not answer is `keysUnavailable`; a value that does not open is `undecodable` as
    /// `what` (`ReadModelError.openingPersonalData`), so every query that opens fails alike.
    public nonisolated func opened(_ stored: String, of subject: String, erased: String, what: String) throws(ReadModelError) -> String {
        try ReadModelError.openingPersonalData(what, key: subject) {
            let text: String?
            if let keyring = personalData {
                text = try keyring.openForReading(stored, subject: subject)
            } else {
                text = try PersonalDataSeal.open(stored, subject: subject, keyring: nil)  // plain, or refused
            }
            return text ?? erased
        }
    }
}
