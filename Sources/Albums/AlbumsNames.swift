import EventSourcing

/// Names the albums domain derives from personal data, in one place because the API's erasure
/// path must derive the same ones.
public enum AlbumsNames {
    /// The subjects invitations' addresses are sealed under, stored `invitee_<keyed hash of the
    /// normalised address>` (`MemberInvited.emailSubject`), so the subject, stored in the clear,
    /// tells nothing of the address.
    public static let invitees = PersonalTag(prefix: "invitee_", purpose: "invitee")

    /// The personal-data subject of an invitation to `email` as the decider writes it: `invitee_`
    /// and the plain SHA-256 of the normalised address, which the sealing step replaces by the
    /// keyed one (`MemberInvited.personalFields`). Erasing an account erases the subject of its
    /// current address, and so every invitation of that address.
    public static func inviteeSubject(email: String) -> String {
        "invitee_" + SHA256Hex.digest(EmailAddress.normalised(email))
    }

    /// The subject of an invitation to `email` as `sealer` stores it: what an erasure must name.
    public static func inviteeSubject(email: String, sealedBy sealer: EventSealer) -> String {
        sealer.keyed(invitees, EmailAddress.normalised(email)) ?? inviteeSubject(email: email)
    }
}
