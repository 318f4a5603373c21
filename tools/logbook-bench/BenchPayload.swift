import EventLog
import Foundation

/// The events every scenario appends: one stream per writer, one type, one tag, and about
/// 200 bytes of JSON data, roughly the shape of a household event.
enum BenchPayload {
    /// Bytes of each event's JSON data.
    static let dataBytes = 200
    static let type = "bench.itemRecorded"
    static let actor = "bench"

    /// Distinct payloads, picked by sequence number, so events differ without formatting JSON
    /// inside the timed loop (on two cores that would steal time from the writer thread).
    static let pool: [Data] = (0..<1_024).map(json)

    /// The stream a writer appends to.
    static func streamID(writer: Int) -> String { "bench-\(writer)" }

    /// The tag every event of a writer carries.
    static func tag(writer: Int) -> String { "writer:\(writer)" }

    /// One event of `streamID` carrying `tag` (none when nil); `sequence` picks its data.
    static func event(streamID: String, tag: String?, sequence: Int) -> ProposedEvent {
        ProposedEvent(streamID: streamID, type: type, tags: tag.map { [$0] } ?? [], data: pool[sequence % pool.count])
    }

    /// An append of `events` under a fresh command id, with no conditions.
    static func request(_ events: [ProposedEvent], commandIDs: CommandIDs = .ordered) -> AppendRequest {
        AppendRequest(events: events, metadata: AppendMetadata(commandID: commandIDs.next(), actor: actor))
    }

    /// JSON of exactly `dataBytes` bytes; the note pads it to size.
    private static func json(_ index: Int) -> Data {
        let head = #"{"itemID":"item-\#(index)","householdID":"house-\#(index % 97)","quantity":\#(index % 13 + 1),"note":""#
        let tail = #""}"#
        let padding = dataBytes - head.utf8.count - tail.utf8.count
        precondition(padding >= 0, "payload template is longer than \(dataBytes) bytes")
        let letters = Array("abcdefghijklmnopqrstuvwxyz ".utf8)
        let note = String(decoding: (0..<padding).map { letters[($0 + index) % letters.count] }, as: UTF8.self)
        let data = Data((head + note + tail).utf8)
        assert(data.count == dataBytes, "payload is \(data.count) bytes")
        return data
    }
}

/// Variations of the appended events, to attribute write cost to the indexes.
struct PayloadShape: Sendable, CustomStringConvertible {
    /// Random ids scatter `commands` index inserts; ordered ones append at its end.
    var commandIDs: CommandIDs = .ordered
    /// With a tag each event also inserts into the `tags` index.
    var tagged = true

    var description: String { "\(commandIDs) command ids, \(tagged ? "1 tag" : "no tags")" }
}
