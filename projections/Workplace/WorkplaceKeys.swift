import Workplace

/// Keys of the workplace read models, built for the queries' prefix scans: `<org>/<user>`
/// lists an organisation's members, `<org>/<inverted position>` its reviews or news newest
/// first, and `<folded name>\0<org>` the directory by name.
///
/// The inverted position and the escaping of ids are `ReadModelKeys`', shared by every app.
enum WorkplaceKeys {
    /// Bytes of a folded name in a directory key at most. A name is at most 100 characters, but
    /// a character may be many bytes and LMDB keys hold 511: names longer than this sort among
    /// themselves by their first `directoryNameBytesMax` bytes, then by id.
    static let directoryNameBytesMax = 300

    /// Separates the name from the id in a directory key. NUL sorts before every other byte,
    /// so a name sorts before every longer name it begins ("Acme" before "Acme Bikes").
    static let directorySeparator = "\u{0}"

    /// `<org>` in the `organisations` table.
    static func organisation(_ organisationId: String) -> String {
        ReadModelKeys.component(organisationId)
    }

    /// Every key of one organisation's lists starts with this.
    static func organisationPrefix(_ organisationId: String) -> String {
        ReadModelKeys.component(organisationId) + "/"
    }

    /// `<org>/<id>`: a member or request (by user id), a form, a review or a news item.
    static func item(_ organisationId: String, _ id: String) -> String {
        organisationPrefix(organisationId) + ReadModelKeys.component(id)
    }

    /// Every key of one list within an organisation (an employee's reviews, a location's
    /// news) starts with this.
    static func listPrefix(_ organisationId: String, _ id: String) -> String {
        item(organisationId, id) + "/"
    }

    /// Every key of one user's organisations starts with this.
    static func userPrefix(_ userId: String) -> String {
        ReadModelKeys.component(userId) + "/"
    }

    /// `<user>/<org>` in the `userOrganisations` table.
    static func userOrganisation(_ userId: String, _ organisationId: String) -> String {
        userPrefix(userId) + ReadModelKeys.component(organisationId)
    }

    /// `<folded name, at most directoryNameBytesMax bytes>\0<org>` in the `directory` table.
    static func directory(folded: String, organisationId: String) -> String {
        var name = Substring(folded)
        if name.utf8.count > directoryNameBytesMax {
            // Cut at a character boundary, so the key stays valid UTF-8 (cursors are strings).
            var bytes = 0
            let end = name.firstIndex { character in
                bytes += character.utf8.count
                return bytes > directoryNameBytesMax
            } ?? name.endIndex
            name = name[..<end]
        }
        return name + directorySeparator + ReadModelKeys.component(organisationId)
    }
}
