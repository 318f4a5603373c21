import EventLog
import Foundation
import Neighbourhood
import OpenAPIRuntime
import Projections

/// Conversions, query-parameter checks and problems of the neighbourhood routes.
enum NeighbourhoodRoutes {
    /// The caller's neighbourhood; 409 `no_neighbourhood` without a postcode, as the decider
    /// answers commands.
    static func required(_ postcode: String?) throws -> String {
        guard let postcode else { throw ProblemMapping.problem(for: NeighbourhoodError.noNeighbourhood) }
        return postcode
    }

    /// The `category` query parameter; 400 `invalid_category` unless it is one of the five.
    static func category(_ text: String) throws -> ReportCategory {
        guard let category = ReportCategory(rawValue: text) else {
            throw Problem(status: .badRequest, code: "invalid_category", title: "Invalid category",
                          detail: "category must be one of \(ReportCategory.names)")
        }
        return category
    }

    /// The `bbox` query parameter (`MapBounds`); 400 `invalid_bbox` unless it is one.
    static func bounds(_ text: String) throws -> MapBounds {
        guard let bounds = MapBounds(parsing: text) else {
            throw Problem(status: .badRequest, code: "invalid_bbox", title: "Invalid bbox",
                          detail: "bbox must be minLon,minLat,maxLon,maxLat: longitudes -180…180, latitudes -90…90, minLat ≤ maxLat")
        }
        return bounds
    }

    /// Whether the client accepts application/json but not GeoJSON's own media type: GeoJSON is
    /// JSON, so such a client gets the same document as application/json.
    static func wantsPlainJSON(_ accept: [AcceptHeaderContentType<Operations.GetNeighbourhoodMap.AcceptableContentType>]) -> Bool {
        accept.contains { $0.contentType == .json } && !accept.contains { $0.contentType == .applicationGeoJson }
    }

    static func item(_ view: ReportView) -> Components.Schemas.ReportItem {
        let report = view.report
        return .init(
            reportId: report.reportId, title: report.title, description: report.description, category: category(report.category),
            location: .init(latitude: report.latitude, longitude: report.longitude), createdAt: report.createdAt,
            author: neighbour(report.author), replyCount: view.replyCount, following: view.following)
    }

    static func detail(_ detail: ReportDetail) -> Components.Schemas.ReportDetail {
        let report = detail.view.report
        return .init(
            reportId: report.reportId, title: report.title, description: report.description, category: category(report.category),
            location: .init(latitude: report.latitude, longitude: report.longitude), createdAt: report.createdAt,
            author: neighbour(report.author), replyCount: detail.view.replyCount, following: detail.view.following,
            replies: detail.replies.map { .init(replyId: $0.replyId, author: neighbour($0.author), message: $0.message, createdAt: $0.createdAt) },
            followerCount: detail.view.followerCount)
    }

    /// A GeoJSON Point feature: coordinates are [longitude, latitude] (RFC 7946 §3.1.1).
    static func feature(_ pin: ReportPin) -> Components.Schemas.ReportFeature {
        .init(_type: .feature, id: pin.reportId,
              geometry: .init(_type: .point, coordinates: [pin.longitude, pin.latitude]),
              properties: .init(reportId: pin.reportId, title: pin.title, category: category(pin.category)))
    }

    static func notification(_ item: NotificationItem) -> Components.Schemas.Notification {
        .init(kind: .reply, reportId: item.reportId, reportTitle: item.reportTitle, replyId: item.replyId,
              from: neighbour(item.from), createdAt: item.createdAt)
    }

    private static func neighbour(_ view: NeighbourView) -> Components.Schemas.Neighbour {
        .init(userId: view.userId, displayName: view.displayName)
    }

    /// The domain's categories are the schema's enum, spelled the same.
    private static func category(_ category: ReportCategory) -> Components.Schemas.ReportCategory {
        Components.Schemas.ReportCategory(rawValue: category.rawValue)!
    }
}
