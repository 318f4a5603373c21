/// Checks an append against the limits before it reaches the writer thread, so that a bad
/// request costs the writer nothing and fails with a precise error.
extension EventLogLimits {
    package func validate(_ request: AppendRequest) throws(EventLogError) {
        if let fingerprint = request.metadata.fingerprint {
            guard !fingerprint.isEmpty else { throw .invalidArgument(field: "fingerprint", reason: "must not be empty") }
            try check("fingerprintBytesMax", fingerprint.count, Self.fingerprintBytesMax)
        }
        try check("eventsPerAppendMax", request.events.count, eventsPerAppendMax)
        try check("expectedVersionsPerAppendMax", request.expectedVersions.count, expectedVersionsPerAppendMax)
        try checkName("actor", request.metadata.actor, "actorBytesMax", actorBytesMax)
        for streamID in request.expectedVersions.keys { try validateStreamID(streamID) }
        for event in request.events { try validate(event) }
        if let condition = request.condition {
            try check("queryTermsMax", condition.query.items.count, queryTermsMax)
            for item in condition.query.items {
                try check("queryTermsMax", max(item.types.count, item.tags.count), queryTermsMax)
                for type in item.types { try checkName("type", type, "typeBytesMax", typeBytesMax) }
                for tag in item.tags { try checkName("tag", tag, "tagBytesMax", tagBytesMax) }
            }
        }
    }

    private func validate(_ event: ProposedEvent) throws(EventLogError) {
        try validateStreamID(event.streamID)
        try checkName("type", event.type, "typeBytesMax", typeBytesMax)
        try check("tagsPerEventMax", event.tags.count, tagsPerEventMax)
        for tag in event.tags { try checkName("tag", tag, "tagBytesMax", tagBytesMax) }
        if Set(event.tags).count != event.tags.count {
            throw .invalidArgument(field: "tags", reason: "an event carries each tag once")
        }
        try check("eventDataBytesMax", event.data.count, eventDataBytesMax)
    }

    private func validateStreamID(_ streamID: String) throws(EventLogError) {
        try check("streamIDBytesMax", streamID.utf8.count, streamIDBytesMax)
        if let problem = StreamName.problem(with: streamID) {
            throw .invalidArgument(field: "streamID", reason: "\(streamID.debugDescription) \(problem)")
        }
    }

    /// Names (types, tags, actors) are non-empty, bounded and free of NUL, the index separator.
    private func checkName(_ field: String, _ value: String, _ limit: String, _ max: Int) throws(EventLogError) {
        guard !value.isEmpty else { throw .invalidArgument(field: field, reason: "must not be empty") }
        try check(limit, value.utf8.count, max)
        if value.utf8.contains(0) { throw .invalidArgument(field: field, reason: "must not contain NUL") }
    }

    private func check(_ limit: String, _ value: Int, _ max: Int) throws(EventLogError) {
        if value > max { throw .limitExceeded(limit: limit, value: value, max: max) }
    }

    /// Checks a read's page size.
    package func validatePage(_ limit: Int) throws(EventLogError) {
        guard limit >= 1 else { throw .invalidArgument(field: "limit", reason: "must be at least 1") }
        try check("readPageEventsMax", limit, readPageEventsMax)
    }
}

extension EventLogLimits {
    /// Hands `submit` the requests within the limits, in order, and answers each over one with its
    /// refusal: a request over a limit fails alone, its neighbours go on. Every store's
    /// `append(contentsOf:)` starts so.
    package func appendingValid(
        _ requests: [AppendRequest], submit: ([AppendRequest]) async -> [Result<AppendResult, EventLogError>]
    ) async -> [Result<AppendResult, EventLogError>] {
        var outcomes: [Result<AppendResult, EventLogError>?] = requests.map { request in
            do throws(EventLogError) {
                try validate(request)
                return nil
            } catch {
                return .failure(error)
            }
        }
        let valid = requests.indices.filter { outcomes[$0] == nil }
        if !valid.isEmpty {
            let written = await submit(valid.map { requests[$0] })
            assert(written.count == valid.count, "one outcome per submitted request")
            for (index, outcome) in zip(valid, written) { outcomes[index] = outcome }
        }
        return outcomes.map { $0! }
    }
}
