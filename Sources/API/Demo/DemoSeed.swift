import Accounts
import CommandHandling
import EventLog
import EventSourcing
import Foundation
import Household
import Projections

/// The demo data `logbook serve --demo` puts into an empty log: two accounts with one shared
/// password, a house both belong to, two rooms, three tasks and a history of completions, two
/// quiz games between them (one finished, one running), their neighbourhood's reports and an
/// organisation Ann runs and Bob works at (a review form, a review of Bob, news).
///
/// Everything goes through the real command path: passwords are hashed by the runtime's bcrypt
/// service (`AuthPasswords`, as registration does), and every change is a command run by
/// `CommandRunner` as the acting user, which waits until the read models include it.
public enum DemoSeed {
    /// One demo account.
    public struct Account: Sendable, Equatable {
        public var email: String
        public var displayName: String
        public var username: String
        /// The neighbourhood the account lives in.
        public var postcode: String
    }

    /// The password every demo account has.
    public static let password = "demo-password"
    /// Ann founds the house; Bob joins it with its join code.
    public static let accounts = [
        Account(email: "ann@example.org", displayName: "Ann", username: "ann", postcode: "1012AB"),
        Account(email: "bob@example.org", displayName: "Bob", username: "bob", postcode: "1012AB"),
    ]
    /// The demo house's name.
    public static let houseName = "Canal House"
}

/// What `seedDemo` made.
public struct DemoSummary: Sendable {
    /// The accounts, in `DemoSeed.accounts` order, with their ids.
    public var accounts: [(account: DemoSeed.Account, userId: String)]
    /// The password of every account.
    public var password: String
    public var houseId: String
    public var houseName: String
    public var joinCode: String
    /// Room names.
    public var rooms: [String]
    /// Task names.
    public var tasks: [String]
    /// Completions recorded.
    public var completions: Int
    /// The quiz game Ann won against Bob, and the one Bob started and is halfway through.
    public var quizGames: (finished: String, running: String)
    /// Neighbourhood reports posted (with replies and follows) in the accounts' postcode.
    public var reports: Int
    /// The workplace organisation, its locations, form, review and news item.
    public var workplace: DemoWorkplace
    /// Ann and Bob's photo group, its photos and chat.
    public var albums: DemoAlbums
    /// The log's head after seeding.
    public var position: UInt64
}

/// What the first start of an empty data directory put into it.
public struct FirstStartSummary: Sendable {
    /// Starter bank questions imported (as `system`).
    public var questionsImported: Int
    /// The demo data, when asked for.
    public var demo: DemoSummary?
}

/// Prepares an empty data directory (head position 0): imports the quiz's starter bank and,
/// with `demo`, seeds the demo data. Returns nil and changes nothing when the log holds events.
/// Servers starting together on one empty shared log take turns (`EventLogBackend.alone`): the
/// first seeds, the others find the log no longer empty.
///
/// Call it before the application starts: the projection runner (`ProjectionService`) runs only
/// inside the application, and every command here waits for the read models (read-your-writes),
/// so this runs the engine itself meanwhile (`prepare()`, then `runLive()` until it is done).
/// The application's runner later prepares again (a no-op) and follows on from the checkpoints.
/// Doing this first means the server never answers while the data is half made.
public func prepareFirstStart(runtime: LogbookRuntime, demo: Bool) async throws -> FirstStartSummary? {
    guard try await runtime.log.headPosition() == 0 else { return nil }
    return try await runtime.log.alone {
        guard try await runtime.log.headPosition() == 0 else { return nil }
        // The demo accounts' personal data is sealed like anyone's (ADR 0004): its commands go
        // through `runtime.commands`, whose sealer has the keyring.
        return try await seedFirstStart(runtime: runtime, demo: demo)
    }
}

private func seedFirstStart(runtime: LogbookRuntime, demo: Bool) async throws -> FirstStartSummary? {
    let entries = try StarterBank.entries()
    let engine = runtime.projections
    _ = try await engine.prepare()
    return try await withThrowingTaskGroup(of: Void.self) { group in
        group.addTask { try await engine.runLive() }
        defer { group.cancelAll() }
        let imported = try await StarterBank.importEntries(entries, runtime: runtime, actor: CommandMetadata.systemActor)
        var summary = FirstStartSummary(questionsImported: imported.added, demo: nil)
        if demo { summary.demo = try await DemoSeeder(runtime: runtime).seed() }
        return summary
    }
}

/// The demo's commands, each as its acting user; each app's part is in its own file.
struct DemoSeeder {
    let runtime: LogbookRuntime

    var accounts: AccountsService { AccountsService(runtime: runtime) }
    var runner: CommandRunner { CommandRunner(runtime: runtime) }

    func seed() async throws -> DemoSummary {
        var userIds: [String] = []
        for account in DemoSeed.accounts { userIds.append(try await register(account)) }
        let (ann, bob) = (userIds[0], userIds[1])
        let reports = try await seedNeighbourhood(ann: ann, bob: bob)

        let houseId = Routes.newID()
        let joinCode = HouseholdRoutes.newJoinCode()
        try await run(.createHouse(houseId: houseId, name: DemoSeed.houseName, joinCode: joinCode,
                                   userId: ann, displayName: try displayName(of: ann)), as: ann)
        try await run(.joinHouse(houseId: houseId, joinCode: joinCode, userId: bob, displayName: try displayName(of: bob)), as: bob)

        let kitchen = Routes.newID(), bathroom = Routes.newID()
        try await run(.addRoom(houseId: houseId, roomId: kitchen, name: "Kitchen"), as: ann)
        try await run(.addRoom(houseId: houseId, roomId: bathroom, name: "Bathroom"), as: bob)

        let tasks = [
            (name: "Wash the dishes", room: kitchen, frequencyDays: 1, points: 5, by: ann),
            (name: "Take out the bins", room: kitchen, frequencyDays: 7, points: 10, by: bob),
            (name: "Clean the bathroom", room: bathroom, frequencyDays: 7, points: 15, by: ann),
        ]
        var taskIds: [String] = []
        for task in tasks {
            let taskId = Routes.newID()
            try await run(.addTask(houseId: houseId, roomId: task.room, taskId: taskId, name: task.name,
                                   frequencyDays: task.frequencyDays, points: task.points), as: task.by)
            taskIds.append(taskId)
        }

        // (task index, who): Ann ends ahead, 50 points to Bob's 35.
        let completions = [(0, ann), (0, bob), (1, bob), (2, ann), (0, ann), (0, bob), (2, bob), (0, ann), (1, ann), (0, bob)]
        for (task, user) in completions {
            try await run(.completeTask(houseId: houseId, taskId: taskIds[task]), as: user)
        }
        let quizGames = try await seedQuiz(ann: ann, bob: bob)
        let workplace = try await seedWorkplace(ann: ann, bob: bob)
        let albums = try await seedAlbums(ann: ann, bob: bob)
        return DemoSummary(
            accounts: Array(zip(DemoSeed.accounts, userIds)).map { (account: $0.0, userId: $0.1) }, password: DemoSeed.password,
            houseId: houseId, houseName: DemoSeed.houseName, joinCode: joinCode, rooms: ["Kitchen", "Bathroom"],
            tasks: tasks.map(\.name), completions: completions.count, quizGames: quizGames, reports: reports,
            workplace: workplace, albums: albums, position: try await runtime.log.headPosition())
    }

    /// Registers `account` as `POST /v1/accounts` does (an id ordered by time, the password
    /// hashed by the runtime's bcrypt service), without starting a session, and verifies its
    /// e-mail with the token registration mailed: the demo's addresses are its own.
    private func register(_ account: DemoSeed.Account) async throws -> String {
        let service = accounts
        let userId = UUID.timeOrdered(at: service.now).uuidString.lowercased()
        let passwordHash = try await service.auth.passwords.hash(DemoSeed.password)
        let verification = service.newVerificationToken()
        let register = AccountCommand.Register(
            userId: userId, email: account.email, passwordHash: passwordHash, passwordLength: DemoSeed.password.count,
            displayName: account.displayName, username: account.username, postcode: account.postcode,
            verification: verification)
        _ = try await service.run(.register(register), actor: userId, expecting: AccountEvent.Registered.typeName)
        let verify = AccountCommand.VerifyEmail(userId: userId, tokenHash: verification.tokenHash)
        _ = try await service.run(.verifyEmail(verify), actor: userId, expecting: AccountEvent.EmailVerified.typeName)
        return userId
    }

    /// Runs a household command as `actor`; the read models include it on return.
    @discardableResult
    func run(_ command: HouseholdCommand, as actor: String) async throws -> UInt64 {
        try await runner.run(HouseholdDecider.self, command, actor: actor).position
    }

    /// The display name of the account, from the read model, as the household routes look it up.
    func displayName(of userId: String) throws -> String {
        guard let profile = try runtime.accounts.profile(userId) else { throw AccountsService.accountNotFound }
        return profile.displayName
    }
}
