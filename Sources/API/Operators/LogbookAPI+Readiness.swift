import Projections

/// `GET /health/ready`: whether this instance should get traffic. `/health` is liveness only.
extension LogbookAPI {
    func getReadiness(_ input: Operations.GetReadiness.Input) async throws -> Operations.GetReadiness.Output {
        let readiness = try await readiness()
        return readiness.status == .ready ? .ok(.init(body: .json(readiness))) : .serviceUnavailable(.init(body: .json(readiness)))
    }

    /// Ready when the runner follows the log at its head, no read is failing, no projection has
    /// failed and the log accepts appends; otherwise every reason why not.
    func readiness() async throws -> Components.Schemas.Readiness {
        let engine = runtime.projections
        let runner = engine.runnerStatus
        let statuses = try await engine.status()
        let logOpen = runtime.isLogOpen
        var reasons: [String] = []
        switch runner.phase {
        case .starting: reasons.append("the projection runner has not started")
        case .catchingUp: reasons.append("the projection runner is catching up with the log")
        case .running: break
        case .stopped: reasons.append("the projection runner stopped")
        }
        // Error texts stay in the server's log: they may name keys, and this route is public.
        if runner.logReadError != nil {
            reasons.append("the projection runner cannot read the log (\(runner.logReadFailures) failures in a row)")
        }
        for status in statuses where status.state == .failed {
            reasons.append("projection \(status.name) failed at position \(status.failure?.position ?? 0)")
        }
        if !logOpen { reasons.append("the log is closed") }
        return Components.Schemas.Readiness(
            status: reasons.isEmpty ? .ready : .notReady,
            runner: .init(rawValue: runner.phase.rawValue) ?? .stopped,
            logWriter: logOpen ? .open : .closed,
            logPosition: Int64(try await runtime.log.headPosition()),
            projectedPosition: Int64(engine.projected.position),
            projections: statuses.map {
                .init(name: $0.name, state: .init(rawValue: $0.state.rawValue) ?? .failed, lag: Int64($0.lag))
            },
            reasons: reasons
        )
    }
}
