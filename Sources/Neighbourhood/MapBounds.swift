/// A map's bounding box as GeoJSON writes one (RFC 7946 §5): west, south, east, north.
///
/// A box whose west edge lies east of its east edge (`minLongitude > maxLongitude`) crosses the
/// antimeridian (§5.2): it holds the longitudes from `minLongitude` to 180 and from −180 to
/// `maxLongitude`. Latitudes never wrap, so `minLatitude > maxLatitude` is refused.
public struct MapBounds: Sendable, Equatable {
    /// West edge, degrees −180…180.
    public var minLongitude: Double
    /// South edge, degrees −90…90.
    public var minLatitude: Double
    /// East edge, degrees −180…180.
    public var maxLongitude: Double
    /// North edge, degrees −90…90, not below `minLatitude`.
    public var maxLatitude: Double

    /// The box `minLon,minLat,maxLon,maxLat`; nil unless that is four finite numbers in range
    /// with `minLat ≤ maxLat`.
    public init?(parsing text: String) {
        let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            .map { Double($0.trimmingCharacters(in: .whitespaces)) }
        guard parts.count == 4, let west = parts[0], let south = parts[1], let east = parts[2], let north = parts[3] else {
            return nil
        }
        self.init(minLongitude: west, minLatitude: south, maxLongitude: east, maxLatitude: north)
    }

    /// The box with these edges; nil unless they are finite, in range and `south ≤ north`.
    public init?(minLongitude: Double, minLatitude: Double, maxLongitude: Double, maxLatitude: Double) {
        let longitudes = NeighbourhoodLimits.longitudeDegrees, latitudes = NeighbourhoodLimits.latitudeDegrees
        // `contains` is false for NaN, and ±infinity lies outside both ranges.
        guard longitudes.contains(minLongitude), longitudes.contains(maxLongitude),
              latitudes.contains(minLatitude), latitudes.contains(maxLatitude), minLatitude <= maxLatitude
        else { return nil }
        self.minLongitude = minLongitude
        self.minLatitude = minLatitude
        self.maxLongitude = maxLongitude
        self.maxLatitude = maxLatitude
    }

    /// Whether the point lies in the box, edges included.
    public func contains(latitude: Double, longitude: Double) -> Bool {
        guard (minLatitude...maxLatitude).contains(latitude) else { return false }
        if minLongitude <= maxLongitude { return (minLongitude...maxLongitude).contains(longitude) }
        return longitude >= minLongitude || longitude <= maxLongitude
    }
}
