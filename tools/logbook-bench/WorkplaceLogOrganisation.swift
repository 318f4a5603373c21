import Workplace

/// What the workplace log generator knows of one organisation: just enough to send only
/// commands the decider accepts (live ids, who is an admin, who is pending, how many people are
/// at each location, each form's questions as they are now).
struct WorkplaceLogOrganisation {
    /// An accepted member, as the decider's state would have them.
    struct Member {
        var userId: String
        var locationId: String
        var admin: Bool
    }

    /// A join request no admin has answered yet.
    struct Pending {
        var userId: String
        var locationId: String
        var employeeNumber: String
        var name: String
    }

    /// A live form and its questions in their current order.
    struct Form {
        var formId: String
        var name: String
        var questions: [Question]
    }

    /// A question of a live form.
    struct Question {
        var questionId: String
        var text: String
        var kind: QuestionKind

        /// As a command asks for it.
        var asked: WorkplaceCommand.NewQuestion { .init(questionId: questionId, text: text, kind: kind.rawValue) }
    }

    /// Where `news` lives: the item and its location.
    struct News {
        var newsId: String
        var locationId: String
    }

    /// Its index among the log's organisations, which every id it makes carries.
    let index: Int
    let organisationId: String
    /// Live locations.
    var locations: [String]
    /// Members and pending requests per location: a location may be removed only at zero.
    var peopleAt: [String: Int] = [:]
    /// Accepted members; the creator is first and stays (never removed, never demoted), so the
    /// organisation always has an admin and a reviewer.
    var members: [Member] = []
    /// Position of each member in `members`.
    var memberIndex: [String: Int] = [:]
    /// User ids of the admins, the creator first.
    var admins: [String] = []
    /// Oldest first: admins answer in order.
    var pending: [Pending] = []
    /// Users whose request was rejected and who may ask again.
    var rejected: [String] = []
    var forms: [Form] = []
    /// News items that may be deleted (at live locations).
    var news: [News] = []
    /// Counter behind every new id and name of the organisation, so none repeats.
    var serial = 0
    /// Users made so far; user `n` of organisation `k` is `u<k>-<n>`.
    var users = 1

    init(index: Int, organisationId: String, locations: [String]) {
        self.index = index
        self.organisationId = organisationId
        self.locations = locations
    }

    /// A fresh number for an id or a name.
    mutating func nextSerial() -> Int {
        serial += 1
        return serial
    }

    /// A user who has never asked to join.
    mutating func newUser() -> String {
        defer { users += 1 }
        return "u\(index)-\(users)"
    }

    mutating func addMember(_ member: Member) {
        memberIndex[member.userId] = members.count
        members.append(member)
        if member.admin { admins.append(member.userId) }
        peopleAt[member.locationId, default: 0] += 1
    }

    /// Removes a member who is not an admin.
    mutating func removeMember(at position: Int) {
        let member = members[position]
        peopleAt[member.locationId, default: 0] -= 1
        memberIndex[member.userId] = nil
        let last = members.removeLast()
        if position < members.count {
            members[position] = last
            memberIndex[last.userId] = position
        }
    }

    mutating func move(member position: Int, to locationId: String) {
        peopleAt[members[position].locationId, default: 0] -= 1
        members[position].locationId = locationId
        peopleAt[locationId, default: 0] += 1
    }

    mutating func setAdmin(member position: Int, _ admin: Bool) {
        members[position].admin = admin
        if admin { admins.append(members[position].userId) } else { admins.removeAll { $0 == members[position].userId } }
    }
}
