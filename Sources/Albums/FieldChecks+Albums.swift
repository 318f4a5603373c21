import EventSourcing

extension FieldChecks {
    /// `raw` normalised (`EmailAddress.normalised`), recording a problem under `email` unless it
    /// is a plausible address: within `AlbumsLimits.emailCharacters`, one `@` with something on
    /// each side, a dot inside the domain, no spaces or control characters. Plausible is all
    /// that can be checked: the address is only compared with accounts' addresses, never mailed.
    mutating func inviteeEmail(_ raw: String) -> String {
        let email = EmailAddress.normalised(raw)
        let parts = email.split(separator: "@", omittingEmptySubsequences: false)
        if !AlbumsLimits.emailCharacters.contains(email.count) {
            let bounds = AlbumsLimits.emailCharacters
            fail("email", "must be \(bounds.lowerBound) to \(bounds.upperBound) characters")
        } else if email.unicodeScalars.contains(where: { $0.properties.isWhitespace || $0.properties.generalCategory == .control }) {
            fail("email", "must not contain spaces")
        } else if parts.count != 2 || parts[0].isEmpty || !Self.isPlausibleDomain(parts[1]) {
            fail("email", "must be an e-mail address")
        }
        return email
    }

    /// Labels separated by dots, at least two, none empty: `example.org`, not `localhost`.
    private static func isPlausibleDomain(_ domain: Substring) -> Bool {
        let labels = domain.split(separator: ".", omittingEmptySubsequences: false)
        return labels.count >= 2 && labels.allSatisfy { !$0.isEmpty }
    }
}
