import EventSourcing

// The household's most frequent event read straight from the scanned JSON (`NodeDecodable`):
// completions are nearly all of a household log. Key for key what the synthesized
// `init(from:)` reads; `HouseholdEventJSONTests` checks the two agree.

extension HouseholdEvent.TaskCompleted: NodeDecodable {
    public init(nodes object: NodeObject) throws {
        self.init(
            houseId: try object.value("houseId"), taskId: try object.value("taskId"), taskName: try object.value("taskName"),
            roomId: try object.value("roomId"), roomName: try object.value("roomName"), userId: try object.value("userId"),
            displayName: try object.value("displayName"), points: try object.value("points"),
            completedAt: try object.value("completedAt"))
    }
}
