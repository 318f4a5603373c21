import Foundation
import Projections

/// The account routes' response bodies, from what the service and the read models return.
extension Components.Schemas.SessionCreated {
    init(_ session: StartedSession) {
        self.init(
            userId: session.userId, token: session.token, expiresAt: session.expiresAt,
            position: Int64(session.position), events: session.eventTypes)
    }
}

extension Components.Schemas.Profile {
    init(_ profile: AccountProfile) {
        self.init(
            userId: profile.userId, email: profile.email, displayName: profile.displayName, firstName: profile.firstName,
            lastName: profile.lastName, username: profile.username, postcode: profile.postcode, avatarBlobId: profile.avatarBlobId,
            emailVerified: profile.emailVerified)
    }
}

extension Components.Schemas.ActivityPage {
    init(_ page: ActivityPage) {
        self.init(
            items: page.items.map { .init(_type: $0.type, at: $0.at, entity: $0.entity, position: Int64($0.position)) },
            next: page.next)
    }
}
