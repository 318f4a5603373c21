/// Texts that are personal data of two users at once: what one user wrote about another (a
/// review's text answers and remark are the reviewer's writing and about the reviewed
/// employee). Sealed under the subject's key, and that envelope under the writer's, so erasing
/// either reads it as the placeholder (ADR 0010).
///
/// A value sealed once under the subject's key (written before this existed) opens too: it
/// does not authenticate under the writer's key, so it is opened under the subject's; once the
/// writer is erased it reads as the placeholder, as a value sealed twice does.
extension PersonalField {
    /// The optional text at `field`, written by the user `writer` names about the user `subject`
    /// names. Absent stays absent; once either is erased it reads as `erased`.
    public static func optionalText(
        _ field: WritableKeyPath<Payload, String?>, of writer: @escaping (Payload) -> String,
        about subject: @escaping (Payload) -> String, erased: String
    ) -> PersonalField {
        PersonalField(
            seal: { payload, keyring in
                guard let text = payload[keyPath: field] else { return }
                payload[keyPath: field] = try PersonalDataSeal.seal(text, by: writer(payload), about: subject(payload), keyring: keyring)
            },
            open: { payload, keyring in
                guard let stored = payload[keyPath: field] else { return }
                payload[keyPath: field] = try PersonalDataSeal.open(stored, by: writer(payload), about: subject(payload), keyring: keyring) ?? erased
            })
    }

    /// The optional text at `field` of every element of the array at `array`, each written by
    /// the user `writer` names about the user `subject` names (a review's text answers).
    public static func eachOptionalText<Element>(
        _ array: WritableKeyPath<Payload, [Element]>, _ field: WritableKeyPath<Element, String?>,
        of writer: @escaping (Payload) -> String, about subject: @escaping (Payload) -> String, erased: String
    ) -> PersonalField {
        PersonalField(
            seal: { payload, keyring in
                let (writer, subject) = (writer(payload), subject(payload))
                for index in payload[keyPath: array].indices {
                    guard let text = payload[keyPath: array][index][keyPath: field] else { continue }
                    payload[keyPath: array][index][keyPath: field] = try PersonalDataSeal.seal(text, by: writer, about: subject, keyring: keyring)
                }
            },
            open: { payload, keyring in
                let (writer, subject) = (writer(payload), subject(payload))
                for index in payload[keyPath: array].indices {
                    guard let stored = payload[keyPath: array][index][keyPath: field] else { continue }
                    payload[keyPath: array][index][keyPath: field] =
                        try PersonalDataSeal.open(stored, by: writer, about: subject, keyring: keyring) ?? erased
                }
            })
    }
}

extension PersonalDataSeal {
    /// `text` sealed under `subject`'s key, and that under `writer`'s.
    public static func seal(_ text: String, by writer: String, about subject: String, keyring: any PersonalDataKeyring) throws -> String {
        try seal(seal(text, subject: subject, keyring: keyring), subject: writer, keyring: keyring)
    }

    /// The text `stored` holds (see `seal(_:by:about:keyring:)`): nil when `writer` or `subject`
    /// is erased; as it is when plain; a value sealed only under `subject`'s key (before
    /// texts were sealed twice) opened under it. Throws when it opens under neither key.
    public static func open(_ stored: String, by writer: String, about subject: String, keyring: (any PersonalDataKeyring)?) throws -> String? {
        let inner: String?
        do {
            inner = try open(stored, subject: writer, keyring: keyring)
        } catch PersonalDataError.tampered {
            return try open(stored, subject: subject, keyring: keyring)
        }
        guard let inner else { return nil }
        return try open(inner, subject: subject, keyring: keyring)
    }
}
