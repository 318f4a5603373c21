import Accounts
import Albums
import Blobs
import Foundation

extension AlbumsLogGenerator {
    /// One member of the group being made: the account and the address it is a member by.
    struct Member {
        var user: Int
        var email: String
        var actor: AlbumsCommand.Actor { .init(email: email, displayName: "User \(user)") }
    }

    /// One group's whole life, then the next group's.
    mutating func group() {
        groupIndex += 1
        let groupId = "g\(groupIndex)"
        var owner = randomUser()
        while emails[owner] == nil { owner = randomUser() }
        let name = "Group \(groupIndex)"
        emit(AlbumsEvent.groupCreated(.init(groupId: groupId, name: name, ownerId: "u\(owner)", ownerEmail: emails[owner]!, createdAt: now)), by: owner)
        var members = [Member(user: owner, email: emails[owner]!)]
        invite(into: groupId, &members)

        var photos: [(photoId: String, blobId: String, user: Int)] = []
        var items = 0
        let activity = max(1, AlbumsLog.eventsPerGroup - members.count - 4)
        var spent = 0
        while spent < activity, budget > 0 {
            let before = budget
            let member = members[Int(random.next() % UInt64(members.count))]
            items += 1
            switch random.next() % 100 {
            case 0..<20:
                let blobId = upload(by: member.user, reusingFrom: members)
                let photoId = "\(groupId)-p\(items)"
                emit(AlbumsEvent.photoAdded(.init(
                    groupId: groupId, photoId: photoId, blobId: blobId, description: "Photo \(items) of \(name), taken by User \(member.user)",
                    addedBy: "u\(member.user)", addedByName: "User \(member.user)", addedAt: now)), by: member.user)
                photos.append((photoId, blobId, member.user))
            case 20..<23 where photos.contains { $0.user == member.user }:
                // Only its adder deletes a photo, and only while a member.
                let own = photos.indices.filter { photos[$0].user == member.user }
                let photo = photos.remove(at: own[Int(random.next() % UInt64(own.count))])
                emit(AlbumsEvent.photoDeleted(.init(groupId: groupId, photoId: photo.photoId, blobId: photo.blobId, actorId: "u\(photo.user)")), by: photo.user)
            case 23..<25:
                let blobId = upload(by: member.user, reusingFrom: [])
                emit(AccountEvent.avatarChanged(.init(userId: "u\(member.user)", blobId: blobId)), by: member.user)
            case 25..<26 where groupIndex % 10 != 0:
                // Not in a group its members all leave: an address no account holds cannot leave.
                moveAddress(of: member.user)
            default:
                emit(AlbumsEvent.messagePosted(.init(
                    groupId: groupId, messageId: "\(groupId)-m\(items)", text: "Message \(items) in \(name): see you on Saturday at ten?",
                    authorId: "u\(member.user)", authorName: "User \(member.user)", postedAt: now)), by: member.user)
            }
            spent += before - budget
            // An account that moved away from its address is no member any more.
            members.removeAll { emails[$0.user] != $0.email }
            if members.isEmpty { return }
        }
        leave(groupId, name: name, members: members, photos: photos.map(\.blobId))
    }

    /// Invites `AlbumsLog.invitedPerGroup` other addresses, by members already in; registers the
    /// invitees without an account after their invitation, as a late sign-up does.
    private mutating func invite(into groupId: String, _ members: inout [Member]) {
        var invited: [Int] = []
        while invited.count < AlbumsLog.invitedPerGroup {
            let user = randomUser()
            guard user != members[0].user, !invited.contains(user) else { continue }
            invited.append(user)
            let email = emails[user] ?? "u\(user)@example.org"
            guard !members.contains(where: { $0.email == email }) else { continue }
            let inviter = members[Int(random.next() % UInt64(members.count))]
            emit(AlbumsEvent.memberInvited(.init(
                groupId: groupId, email: email, emailSubject: AlbumsNames.inviteeSubject(email: email), inviterId: "u\(inviter.user)",
                invitedAt: now)), by: inviter.user)
            if emails[user] == nil { register(user) }
            members.append(Member(user: user, email: email))
        }
    }

    /// One member leaves; every tenth group, all of them, the last leaving deleting the group.
    private mutating func leave(_ groupId: String, name: String, members: [Member], photos: [String]) {
        // Every address of a tenth group is its member's still (no account moves in one).
        let everyone = groupIndex % 10 == 0
        let leaving = everyone ? members : [members[members.count - 1]]
        for (index, member) in leaving.enumerated() {
            emit(AlbumsEvent.memberLeft(.init(groupId: groupId, email: member.email, userId: "u\(member.user)", leftAt: now)), by: member.user)
            if everyone, index == leaving.count - 1 {
                emit(AlbumsEvent.groupDeleted(.init(groupId: groupId, name: name, ownerId: "u\(members[0].user)", blobIds: photos, deletedAt: now)), by: member.user)
            }
        }
    }

    /// A blob `user` uploads: mostly new bytes, one in ten another member's image again (their
    /// own upload event: the same id, a second uploader).
    private mutating func upload(by user: Int, reusingFrom members: [Member]) -> String {
        let others = members.filter { $0.user != user }.compactMap { uploads[$0.user]?.last }
        let blobId = !others.isEmpty && random.next() % 10 == 0 ? others[Int(random.next() % UInt64(others.count))] : newBlobId()
        if uploads[user]?.contains(blobId) != true {
            emit(BlobEvent.uploaded(.init(
                blobId: blobId, contentType: ImageType.jpeg.rawValue, bytes: 50_000 + Int(random.next() % 4_000_000), uploaderId: "u\(user)",
                uploadedAt: now)), by: user)
            uploads[user, default: []].append(blobId)
            if uploads[user]!.count > 4 { uploads[user]!.removeFirst() }
        }
        return blobId
    }

    /// `user` moves to a new address of their own (`account.emailChanged`).
    private mutating func moveAddress(of user: Int) {
        guard let old = emails[user] else { return }
        // The budget left is different at every event: an address never used before.
        let new = "u\(user).\(budget)@example.org"
        emit(AccountEvent.emailChanged(.init(userId: "u\(user)", oldEmail: old, newEmail: new)), by: user)
        emails[user] = new
    }
}
