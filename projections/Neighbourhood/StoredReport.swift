import Foundation
import Neighbourhood

/// A live report as the `reports` table keeps it: what it was posted with, never rewritten.
/// Deleted reports are removed, not marked. In the table its title, description and author's
/// name are as the log stores them (sealed); `NeighbourhoodQueries` answers with them opened.
public struct StoredReport: Sendable, Equatable, Codable {
    /// The report's id.
    public var reportId: String
    /// The neighbourhood it was posted in.
    public var neighbourhood: String
    /// Its title.
    public var title: String
    /// Its description.
    public var description: String
    /// Its category.
    public var category: ReportCategory
    /// Degrees.
    public var latitude: Double
    /// Degrees.
    public var longitude: Double
    /// When it was posted.
    public var createdAt: Date
    /// Who posted it, with their name at the time.
    public var author: NeighbourView
    /// The log position of `reportPosted`: the report's place in every newest-first list.
    public var position: UInt64
}

/// What follows and replies need of a report and change, in the `activity` table: small, so
/// that they rewrite a few bytes and never decode the report's description (up to 5,000
/// characters) or any of its sealed text.
///
/// The followers are here rather than in a table of their own: a reply reads this row anyway
/// and finds whom to notify in it, where a prefix scan of a followers table took a second search;
/// a follow checks and adds in it, where an insert into that table took a third write. The
/// decider bounds them (`NeighbourhoodLimits.followersPerReportMax`).
struct ReportActivity: Sendable, Equatable {
    /// As `StoredReport.position`: a follow list's key for the report.
    var position: UInt64
    /// Its replies.
    var replyCount: Int
    /// Its followers in the order they followed, the author included while they follow.
    var followers: [String]
}

/// A report in a list, as one reader sees it.
public struct ReportView: Sendable, Equatable, Codable {
    /// The report.
    public var report: StoredReport
    /// Its replies.
    public var replyCount: Int
    /// Its followers, the author included while they follow.
    public var followerCount: Int
    /// Whether the reader follows it.
    public var following: Bool
}

/// One report with its thread.
public struct ReportDetail: Sendable, Equatable, Codable {
    /// The report as the reader sees it.
    public var view: ReportView
    /// Its replies, oldest first.
    public var replies: [ReplyView]
}

/// A reply to a report.
public struct ReplyView: Sendable, Equatable, Codable {
    /// The reply's id.
    public var replyId: String
    /// Who wrote it.
    public var author: NeighbourView
    /// What they wrote.
    public var message: String
    /// When.
    public var createdAt: Date
}

/// A report on the map: what a pin shows, stored in the neighbourhood's list so that the map
/// reads one table.
public struct ReportPin: Sendable, Equatable, Codable {
    /// The report's id.
    public var reportId: String
    /// Who posted it: whose key opens the title as the list stores it.
    public var authorId: String
    /// Its title.
    public var title: String
    /// Its category.
    public var category: ReportCategory
    /// Degrees.
    public var latitude: Double
    /// Degrees.
    public var longitude: Double
}

extension StoredReport: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(reportId)
        writer.write(neighbourhood)
        writer.write(title)
        writer.write(description)
        writer.write(category)
        writer.write(latitude)
        writer.write(longitude)
        writer.write(createdAt)
        writer.write(author)
        writer.write(position)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        reportId = try reader.read()
        neighbourhood = try reader.read()
        title = try reader.read()
        description = try reader.read()
        category = try reader.read()
        latitude = try reader.read()
        longitude = try reader.read()
        createdAt = try reader.read()
        author = try reader.read()
        position = try reader.read()
    }
}

extension ReportActivity: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(position)
        writer.write(replyCount)
        writer.write(followers)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        position = try reader.read()
        replyCount = try reader.read()
        followers = try reader.read()
    }
}

/// A reply as `neighbourhood.reports` stores it: what readers see, and the followers it
/// notified, which only deleting the report needs (to remove those notifications).
struct StoredReply: Sendable, Equatable {
    var view: ReplyView
    /// The followers notified, in the order they followed.
    var recipients: [String]
}

extension StoredReply: ReadModelValue {
    func encode(to writer: inout ValueWriter) {
        writer.write(view)
        writer.write(recipients)
    }

    init(from reader: inout ValueReader) throws(ValueDecodingError) {
        view = try reader.read()
        recipients = try reader.read()
    }
}

extension ReplyView: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(replyId)
        writer.write(author)
        writer.write(message)
        writer.write(createdAt)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        replyId = try reader.read()
        author = try reader.read()
        message = try reader.read()
        createdAt = try reader.read()
    }
}

extension ReportPin: ReadModelValue {
    public func encode(to writer: inout ValueWriter) {
        writer.write(reportId)
        writer.write(authorId)
        writer.write(title)
        writer.write(category)
        writer.write(latitude)
        writer.write(longitude)
    }

    public init(from reader: inout ValueReader) throws(ValueDecodingError) {
        reportId = try reader.read()
        authorId = try reader.read()
        title = try reader.read()
        category = try reader.read()
        latitude = try reader.read()
        longitude = try reader.read()
    }
}
