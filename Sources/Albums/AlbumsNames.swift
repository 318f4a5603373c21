import EventSourcing

/// Names the albums domain derives from personal data, in one place because the API's erasure
/// path must derive the same ones.
public enum AlbumsNames {
    /// The personal-data subject an invitation's address is sealed under (`MemberInvited.
    /// emailSubject`): `invitee_` and a keyed hash of the normalised address when a keyring is
    /// in effect (so the subject, stored in the clear, tells nothing of the address), its plain
    /// SHA-256 otherwise (pure code and tests). Erasing an account erases the subject of its
    /// current address, and so every invitation of that address.
    public static func inviteeSubject(email: String) -> String {
        let normalised = EmailAddress.normalised(email)
        guard let keyring = PersonalDataKeys.current else { return "invitee_" + SHA256Hex.digest(normalised) }
        return "invitee_" + keyring.blindTag("invitee", normalised)
    }
}
