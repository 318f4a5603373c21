import Testing
@testable import Neighbourhood

/// Bounding boxes as `GET /v1/neighbourhood/map?bbox=` takes them (RFC 7946 §5).
@Suite("Neighbourhood map bounds")
struct MapBoundsTests {
    @Test func fourNumbersWestSouthEastNorth() throws {
        let box = try #require(MapBounds(parsing: "4.8,52.3, 4.95 ,52.4"))
        #expect(box == MapBounds(minLongitude: 4.8, minLatitude: 52.3, maxLongitude: 4.95, maxLatitude: 52.4))
        #expect(box.contains(latitude: 52.3731, longitude: 4.8922))
        #expect(box.contains(latitude: 52.3, longitude: 4.8), "edges are inside")
        #expect(!box.contains(latitude: 52.3731, longitude: 5.0))
        #expect(!box.contains(latitude: 52.5, longitude: 4.9))
    }

    @Test(arguments: ["", "1,2,3", "1,2,3,4,5", "a,2,3,4", "1,,3,4", "nan,0,1,1", "inf,0,1,1", "-181,0,0,1", "0,-91,1,0",
                      "0,10,1,5", "0,0,181,1", "0,0,1,91"])
    func anythingElseIsRefused(text: String) {
        #expect(MapBounds(parsing: text) == nil)
    }

    @Test func aWestEdgeEastOfTheEastEdgeCrossesTheAntimeridian() throws {
        let pacific = try #require(MapBounds(parsing: "170,-20,-170,20"))
        #expect(pacific.contains(latitude: 0, longitude: 175))
        #expect(pacific.contains(latitude: 0, longitude: -175))
        #expect(pacific.contains(latitude: 0, longitude: 180) && pacific.contains(latitude: 0, longitude: -180))
        #expect(!pacific.contains(latitude: 0, longitude: 0))
        #expect(!pacific.contains(latitude: 30, longitude: 175))
    }
}
