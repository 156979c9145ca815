import Foundation
import PlayerFormRules
import PlayerFormScores
import PostgresNIO
import Testing

@testable import PlayerFormPostgres

/// A league whose server cannot be reached.
///
/// No server needed.
@Suite("The PostgreSQL league out of reach")
struct PostgresLocationTests {
    @Test(
        "a server that cannot be reached is an error naming host and port, and a store operation throws it typed"
    )
    func unreachable() async throws {
        // Port 1 on the loopback: nothing listens there.
        let store = PostgresScoreStore(
            location: try PostgresLocation("postgres://bob:s3cret@127.0.0.1:1/league", environment: [:]),
            password: "s3cret")
        let error = await #expect(throws: ScoreStoreError.self) { try await store.open() }
        #expect(error == .unreachable(.server(endpoint: "127.0.0.1:1"), reason: "connection refused"))
        await #expect(
            throws: ScoreStoreError.unreachable(
                .server(endpoint: "127.0.0.1:1"), reason: "connection refused")
        ) {
            try await store.records()
        }
    }
}

/// The league on a real PostgreSQL server: what SQLite cannot show, many clients at once, a
/// connection the server drops, a statement the server stops.
///
/// Skipped without `PLAYERFORM_TEST_POSTGRES_URL`, saying so.
@Suite(
    "The PostgreSQL league",
    .enabled(if: PostgresTestServer.isAvailable, "PLAYERFORM_TEST_POSTGRES_URL is not set"),
    // A store that keeps using a dead connection must fail here, not hang the suite.
    .timeLimit(.minutes(10)))
struct PostgresStoreTests {
    let location: PostgresLocation
    let schema = PostgresTestServer.freshSchema()

    init() throws {
        location = try PostgresLocation(
            PostgresTestServer.url ?? "postgres://nobody@localhost/none", environment: [:])
    }

    func store(
        name: String = "playerform", timeout: Duration = .seconds(30), clock: SteppingClock = SteppingClock()
    ) -> PostgresScoreStore {
        PostgresScoreStore(
            location: location, password: nil, schema: schema, statementTimeout: timeout,
            applicationName: name, now: clock.now)
    }

    /// A plain connection to the server, for doing to a store what another program would.
    @discardableResult
    func withAdmin<T: Sendable>(_ work: @Sendable (PostgresConnection) async throws -> T) async throws -> T {
        try await PostgresTestServer.withAdmin(at: location, work)
    }

    @Test("clients connecting at once to a new league make its schema once, under the advisory lock")
    func concurrentMigration() async throws {
        let stores = (0..<6).map { _ in store() }
        try await withThrowingTaskGroup(of: Void.self) { group in
            for store in stores { group.addTask { try await store.open() } }
            try await group.waitForAll()
        }
        let versions = try await withAdmin { connection in
            var versions: [Int] = []
            for try await version in try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT version FROM \(schema).schema_version"),
                logger: Logger(label: "spec")
            ).decode(Int.self) { versions.append(version) }
            return versions
        }
        #expect(versions == Array(1...PostgresScoreStore.schemaVersion))
        #expect(try await stores[5].playerCount() == 0)
    }

    @Test("a league already up to date opens without its migration lock, which another client may hold")
    func upToDateWithoutLock() async throws {
        try await store().open()
        let hurried = store(timeout: .milliseconds(300))
        let schema = schema
        try await withAdmin { connection in
            // Another client holds the lock a migration takes, for longer than the timeout.
            let logger = Logger(label: "spec")
            try await connection.perform("BEGIN", logger: logger)
            try await connection.perform(
                "SELECT pg_advisory_xact_lock(\(Migrations.lockKey), hashtext(\(schema)))", logger: logger)
            try await hurried.open()
            #expect(try await hurried.playerCount() == 0)
            try await connection.perform("COMMIT", logger: logger)
        }
    }

    @Test("a user allowed only to read and write the tables keeps scores in a league already made")
    func userWithoutCreate() async throws {
        try await store().open()
        let schema = schema
        // A role of this spec's own, with no right to create anything.
        let role = "keeper_" + schema
        let grants = [
            "CREATE ROLE \(role) LOGIN",
            "GRANT USAGE ON SCHEMA \(schema) TO \(role)",
            "GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA \(schema) TO \(role)",
            // As the README and the refusal's message give them.
            "GRANT USAGE, SELECT ON ALL SEQUENCES IN SCHEMA \(schema) TO \(role)",
        ]
        let cleanup = ["DROP OWNED BY \(role)", "DROP ROLE \(role)"]
        func run(_ statements: [String]) async throws {
            try await withAdmin { connection in
                for statement in statements {
                    try await connection.perform(
                        PostgresQuery(unsafeSQL: statement), logger: Logger(label: "spec"))
                }
            }
        }
        try await run(grants)
        var keeperLocation = location
        keeperLocation.user = role
        let keeper = PostgresScoreStore(location: keeperLocation, password: nil, schema: schema)
        do {
            _ = try await keeper.upload(name: "Kim", points: 3)
            // An import, through COPY and the staged records' function, too.
            let imported = ScoreRecord(id: UUID(), name: "Lee", points: 4, uploadedAt: Date())
            #expect(try await keeper.keep(RecordBatch([imported])).added == 1)
            #expect(try await keeper.players(from: 0, limit: 5).map(\.name) == ["Kim", "Lee"])
        } catch {
            Issue.record("the keeper could not use the league: \(error)")
        }
        await keeper.close()
        try await run(cleanup)
    }

    @Test("a schema newer than this program's is refused, naming the version")
    func newerSchema() async throws {
        try await store().open()
        let schema = schema
        try await withAdmin { connection in
            try await connection.query(
                PostgresQuery(unsafeSQL: "INSERT INTO \(schema).schema_version (version) VALUES (99)"),
                logger: Logger(label: "spec"))
        }
        await #expect(throws: ScoreStoreError.newerSchema(.server(endpoint: location.endpoint), version: 99))
        {
            try await store().open()
        }
    }

    @Test("a league of schema version 1 is moved to version 2: records, players, order and count kept")
    func migratesFirstVersion() async throws {
        let schema = schema
        let names = ["Ann", "Bob", "Cy", "bob", "ANN", "Dee"]
        let ids = names.map { _ in UUID() }
        // The league as the first version left it: player ids that are not their first records'
        // seq, and dense positions.
        try await withAdmin { connection in
            let logger = Logger(label: "spec")
            try await connection.perform(PostgresQuery(unsafeSQL: "CREATE SCHEMA \(schema)"), logger: logger)
            try await connection.perform(
                PostgresQuery(unsafeSQL: "SET search_path TO \(schema)"), logger: logger)
            try await connection.perform(
                "CREATE TABLE schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())",
                logger: logger)
            for statement in Migrations.steps[0].sql {
                try await connection.perform(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
            try await connection.perform("INSERT INTO schema_version (version) VALUES (1)", logger: logger)
            var players: [String: Int64] = [:]
            for (index, (id, name)) in zip(ids, names).enumerated() {
                let seq = Int64(index + 1)
                let key = PlayerName.comparisonKey(name)
                if players[key] == nil {
                    let playerID = Int64(100 - index)
                    let position = Int64(players.count)
                    players[key] = playerID
                    try await connection.perform(
                        """
                        INSERT INTO player (id, key, position, first_score, name, points, uploaded_at, uploads)
                        VALUES (\(playerID), \(key), \(position), \(seq), \(name), 1, 0, 1)
                        """, logger: logger)
                }
                let playerID = players[key]!
                try await connection.perform(
                    """
                    INSERT INTO score (seq, id, player_id, name, points, uploaded_at)
                    VALUES (\(seq), \(id), \(playerID), \(name), \(Double(seq)), 0)
                    """, logger: logger)
                try await connection.perform(
                    "UPDATE player SET name = \(name), points = \(Double(seq)) WHERE id = \(playerID)",
                    logger: logger)
            }
            try await connection.perform("SELECT setval('score_seq_seq', 6)", logger: logger)
        }
        let store = store()
        try await expectKeptAcrossMigration(store, ids: ids)
    }

    @Test("many clients uploading at once lose nothing, double nothing, and keep one player per name")
    func concurrentUploads() async throws {
        let clients = (0..<8).map { _ in store() }
        try await clients[0].open()
        let uploaded = try await withThrowingTaskGroup(of: [ScoreRecord].self) { group in
            for (index, client) in clients.enumerated() {
                group.addTask {
                    var kept: [ScoreRecord] = []
                    for round in 0..<40 {
                        // Names shared by every client, so that they race to make the same player.
                        kept.append(
                            try await client.upload(name: "Player \(round % 13)", points: Double(index)))
                    }
                    return kept
                }
            }
            return try await group.reduce(into: []) { $0 += $1 }
        }
        let records = try await clients[3].records()
        #expect(records.count == 8 * 40)
        #expect(Set(records.map(\.id)) == Set(uploaded.map(\.id)))
        #expect(try await clients[5].playerCount() == 13)
        // Each player holds every record of its name and shows the newest (records are oldest
        // first, those of the same time in the order kept).
        let players = try await clients[5].players(from: 0, limit: 20)
        let byKey = Dictionary(grouping: records) { PlayerName.comparisonKey($0.name) }
        #expect(Set(players.map { PlayerName.comparisonKey($0.name) }) == Set(byKey.keys))
        for player in players {
            let own = byKey[PlayerName.comparisonKey(player.name)] ?? []
            #expect(Set(player.recordIDs) == Set(own.map(\.id)), "\(player.name)")
            #expect(player.points == own.last?.points, "\(player.name)")
            #expect(player.uploadedAt == own.last?.uploadedAt, "\(player.name)")
        }
    }

    /// Waits (polling the server, no timer) until the client named `name` waits for a lock,
    /// then ends its connection from the server's side.
    func dropWhenWaiting(_ name: String, on connection: PostgresConnection) async throws {
        var waiting = false
        var polls = 0
        while !waiting {
            polls += 1
            try #require(polls < 20_000, "the client never waited for the lock")
            for try await _ in try await connection.query(
                """
                SELECT pid FROM pg_stat_activity
                WHERE application_name = \(name) AND wait_event_type = 'Lock'
                """, logger: Logger(label: "spec")
            ).decode(Int32.self) { waiting = true }
        }
        try await connection.query(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(name)",
            logger: Logger(label: "spec"))
    }

    @Test("a connection the server drops fails that operation; the next connects again and loses nothing")
    func droppedConnection() async throws {
        let name = "spec-drop-\(UUID())"
        let store = store(name: name)
        let colin = try await store.upload(name: "Colin", points: 1)
        let schema = schema
        try await withAdmin { connection in
            // Another program holds the write lock, so the deletion is under way when the
            // connection is dropped.
            try await connection.query("BEGIN", logger: Logger(label: "spec"))
            try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT revision FROM \(schema).meta FOR UPDATE"),
                logger: Logger(label: "spec"))
            let deletion = Task { try await store.deletePlayer(named: "Colin") }
            try await dropWhenWaiting(name, on: connection)
            await #expect(throws: ScoreStoreError.connectionLost(.server(endpoint: location.endpoint))) {
                _ = try await deletion.value
            }
            try await connection.query("COMMIT", logger: Logger(label: "spec"))
        }
        #expect(try await store.records() == [colin])
        let ann = try await store.upload(name: "Ann", points: 2)
        #expect(try await store.records() == [colin, ann])
    }

    @Test(
        "after the server drops an idle connection, every operation connects again: upload, listing, find, delete, import, revision",
        arguments: ["upload", "players", "find", "delete", "keep", "revision", "records"])
    func everyOperationAfterADrop(_ operation: String) async throws {
        // Three rounds: whether the client has noticed the drop before the operation is sent
        // is a race, and each round is another chance for a store that does not connect again
        // to be caught.
        for _ in 0..<3 {
            try await operationAfterADrop(operation)
        }
    }

    /// One round of ``everyOperationAfterADrop(_:)``, on a league of its own.
    private func operationAfterADrop(_ operation: String) async throws {
        let schema = PostgresTestServer.freshSchema()
        let name = "spec-idle-\(UUID())"
        let store = PostgresScoreStore(
            location: location, password: nil, schema: schema, applicationName: name, now: SteppingClock().now
        )
        let colin = try await store.upload(name: "Colin", points: 1)
        try await withAdmin { connection in
            try await connection.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(name)",
                logger: Logger(label: "spec"))
        }
        // A write that may have been kept fails once when its connection was lost unnoticed (the
        // next connects again); a read, an upload and an import are sent again at once.
        if operation == "delete" {
            var failure: ScoreStoreError?
            do {
                _ = try await store.deletePlayer(named: "colin")
            } catch {
                failure = error
            }
            if let failure {
                #expect(failure == .connectionLost(.server(endpoint: location.endpoint)), "\(failure)")
            } else {
                #expect(try await store.playerCount() == 0)
                return
            }
        }
        switch operation {
        case "upload": _ = try await store.upload(name: "Ann", points: 2)
        case "players": #expect(try await store.players(from: 0, limit: 10).map(\.name) == ["Colin"])
        case "find":
            #expect(try await store.players(startingWith: "co", limit: 10).map(\.player.name) == ["Colin"])
        case "delete": #expect(try await store.deletePlayer(named: "colin")?.name == "Colin")
        case "keep":
            let ann = ScoreRecord(
                id: UUID(), name: "Ann", points: 2, uploadedAt: Date(timeIntervalSince1970: 0))
            #expect(try await store.keep(RecordBatch([ann, colin])).added == 1)
        case "revision": _ = try await store.revision()
        default: #expect(try await store.records() == [colin])
        }
        // And the store goes on working on the new connection.
        #expect(
            try await store.playerCount()
                == (operation == "delete" ? 0 : operation == "upload" || operation == "keep" ? 2 : 1))
    }

    @Test("an upload whose connection drops is sent again on a new one and kept once")
    func uploadRetried() async throws {
        let name = "spec-retry-\(UUID())"
        let store = store(name: name)
        try await store.open()
        let schema = schema
        let bob = try await withAdmin { connection in
            try await connection.query("BEGIN", logger: Logger(label: "spec"))
            try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT revision FROM \(schema).meta FOR UPDATE"),
                logger: Logger(label: "spec"))
            async let upload = store.upload(name: "Bob", points: 3)
            try await dropWhenWaiting(name, on: connection)
            try await connection.query("COMMIT", logger: Logger(label: "spec"))
            return try await upload
        }
        #expect(try await store.records() == [bob])
    }

    @Test(
        "an upload or a delete by one client reaches another client's changes at once, by NOTIFY, with no polling",
        .timeLimit(.minutes(5)))
    func notifications() async throws {
        let (watcher, writer) = (store(), store())
        try await watcher.open()
        try await writer.open()
        #expect(watcher.isListening)
        // Polling would yield only after an hour: every change below is a notification.
        var changes = watcher.changes(fallbackInterval: .seconds(3600)).makeAsyncIterator()
        let before = try await watcher.revision()
        let ann = try await writer.upload(name: "Ann", points: 1)
        #expect(await changes.next() != nil)
        let uploaded = try await watcher.revision()
        #expect(uploaded != before)
        try await writer.delete(ids: [ann.id])
        #expect(await changes.next() != nil)
        let deleted = try await watcher.revision()
        #expect(deleted != uploaded)
        _ = try await writer.upload(name: "Bob", points: 2)
        #expect(await changes.next() != nil)
        _ = try await writer.deletePlayer(named: "bob")
        #expect(await changes.next() != nil)
        #expect(try await watcher.playerCount() == 0)
        #expect(try await watcher.revision() != deleted)
    }

    @Test(
        "a change to a league in another schema of the same database wakes no one in this one",
        .timeLimit(.minutes(5)))
    func otherLeagueNotifications() async throws {
        let (watcher, writer) = (store(), store())
        let elsewhere = PostgresScoreStore(
            location: location, password: nil, schema: PostgresTestServer.freshSchema())
        try await watcher.open()
        try await writer.open()
        try await elsewhere.open()
        #expect(watcher.isListening)
        var changes = watcher.changes(fallbackInterval: .seconds(3600)).makeAsyncIterator()
        // The server delivers notifications in commit order, the other league's first: with the
        // filter right, exactly one is heard once this league's has woken the watcher. (Whether
        // a broken filter shows here depends on timing; "The feed of a league's notifications"
        // pins the filter itself.)
        _ = try await elsewhere.upload(name: "Zed", points: 1)
        _ = try await writer.upload(name: "Ann", points: 1)
        #expect(await changes.next() != nil)
        #expect(watcher.notificationsHeard == 1)
        #expect(try await watcher.playerCount() == 1)
    }

    @Test(
        "after its connection is lost a store polls for changes, and listens again once it connects again",
        .timeLimit(.minutes(5)))
    func listensAgain() async throws {
        let name = "spec-listen-\(UUID())"
        let watcher = store(name: name)
        try await watcher.open()
        #expect(watcher.isListening)
        var changes = watcher.changes(fallbackInterval: .milliseconds(5)).makeAsyncIterator()
        try await withAdmin { connection in
            try await connection.query(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE application_name = \(name)",
                logger: Logger(label: "spec"))
        }
        // The stream yields while nothing listens: the lost connection is noticed.
        while watcher.isListening { _ = await changes.next() }
        #expect(await changes.next() != nil)
        // A caller asks for the revision, as an idle prompt does at each tick: connected again.
        _ = try? await watcher.revision()
        if !watcher.isListening { _ = try await watcher.revision() }
        #expect(watcher.isListening)
        let writer = store()
        _ = try await writer.upload(name: "Ann", points: 1)
        #expect(try await watcher.playerCount() == 1)
    }

    @Test("a statement that waits longer than the statement timeout fails; nothing is changed")
    func statementTimeout() async throws {
        // The league is made, and the short timeout set, before anything waits: on a busy machine
        // making the tables alone may take longer than 300 ms.
        let store = store()
        let colin = try await store.upload(name: "Colin", points: 1)
        let hurried = self.store(timeout: .milliseconds(300))
        try await hurried.open()
        let schema = schema
        try await withAdmin { connection in
            // Another program holds the league's write lock for longer than the timeout.
            try await connection.query("BEGIN", logger: Logger(label: "spec"))
            try await connection.query(
                PostgresQuery(unsafeSQL: "SELECT revision FROM \(schema).meta FOR UPDATE"),
                logger: Logger(label: "spec"))
            await #expect(
                throws: ScoreStoreError.timedOut(.server(endpoint: location.endpoint), milliseconds: 300)
            ) {
                try await hurried.upload(name: "Ann", points: 2)
            }
            try await connection.query("COMMIT", logger: Logger(label: "spec"))
        }
        #expect(try await store.records() == [colin])
        #expect(try await store.upload(name: "Ann", points: 2).name == "Ann")
    }

    @Test(
        "a batch the server refuses is kept a record at a time: its deletions apply, only the refused record is out"
    )
    func refusedBatchOneByOne() async throws {
        let store = store()
        let old = try await store.upload(name: "Old", points: 1)
        let time = Date(timeIntervalSince1970: 1_763_712_100)
        let ann = ScoreRecord(id: UUID(), name: "Ann", points: 2, uploadedAt: time)
        // PostgreSQL's text holds no NUL character: the server refuses this record.
        let nul = ScoreRecord(id: UUID(), name: "B\u{0}b", points: 3, uploadedAt: time)
        var batch = RecordBatch()
        batch.append(ann)
        batch.delete([old.id])
        batch.append(nul)
        let kept = try await store.keep(batch)
        #expect(kept.added == 1 && kept.deleted == 1 && kept.conflicting.isEmpty)
        #expect(kept.refused.map(\.position) == [1])
        #expect(try await store.records() == [ann])
    }
}

/// What a store hears of the league's changes, without a server.
@Suite("The feed of a league's notifications")
struct ChangeFeedTests {
    @Test(
        "a notification of a league in another schema is ignored; one of this league wakes every subscriber")
    func filtersBySchema() async {
        let feed = ChangeFeed(schema: "league_a")
        var (first, second) = (feed.subscribe().makeAsyncIterator(), feed.subscribe().makeAsyncIterator())
        feed.received(payload: "league_b")
        feed.received(payload: "")
        #expect(feed.heardCount == 0)
        feed.received(payload: "league_a")
        #expect(feed.heardCount == 1)
        #expect(await first.next() != nil)
        #expect(await second.next() != nil)
    }
}

/// The league over TLS, against the test server's certificate.
///
/// `PLAYERFORM_TEST_POSTGRES_TLS` names a folder with `root.crt` (the root that signed the server's certificate, which names
/// `localhost` and `127.0.0.1`) and `other.crt` (an unrelated root); the server also listens on
/// `127.0.0.2`, a name its certificate does not give. `.ci/run` makes them.
///
/// Skipped without it, saying so.
@Suite(
    "The PostgreSQL league over TLS",
    .enabled(
        if: PostgresTestServer.isAvailable && PostgresTestServer.tlsFolder != nil,
        "PLAYERFORM_TEST_POSTGRES_TLS is not set"))
struct PostgresTLSTests {
    let folder = PostgresTestServer.tlsFolder ?? "/nonexistent"
    let base: PostgresLocation
    let schema = PostgresTestServer.freshSchema()

    init() throws {
        base = try PostgresLocation(
            PostgresTestServer.url ?? "postgres://nobody@localhost/none", environment: [:])
    }

    /// A store on the test server at `host` with `parameters`, named `name` in `pg_stat_activity`.
    func store(host: String = "127.0.0.1", _ parameters: String, name: String) throws -> PostgresScoreStore {
        let location = try PostgresLocation(
            "postgres://\(base.user)@\(host):\(base.port)/\(base.database)?\(parameters)", environment: [:])
        return PostgresScoreStore(location: location, password: nil, schema: schema, applicationName: name)
    }

    /// Whether the connection named `name` is encrypted, as the server sees it.
    func encrypted(_ name: String) async throws -> Bool? {
        try await PostgresTestServer.encryption(ofConnectionNamed: name, at: base)
    }

    @Test(
        "sslmode require and prefer encrypt without checking the certificate when no root file is there; disable does not encrypt"
    )
    func unchecked() async throws {
        for (mode, expected) in [("require", true), ("prefer", true), ("disable", false)] {
            let name = "tls-\(mode)-\(UUID().uuidString.prefix(8))"
            let store = try store("sslmode=\(mode)&sslrootcert=\(folder)/no-such-file.crt", name: name)
            try await store.open()
            #expect(try await encrypted(name) == expected, "sslmode=\(mode)")
            await store.close()
        }
    }

    @Test(
        "sslmode require and prefer with a file of root certificates check the chain against it, as libpq does"
    )
    func uncheckedWithRoots() async throws {
        for mode in ["require", "prefer"] {
            let other = try store(
                "sslmode=\(mode)&sslrootcert=\(folder)/other.crt", name: "tls-\(mode)-other")
            let error = await #expect(throws: ScoreStoreError.self) { try await other.open() }
            #expect(
                String(describing: error).contains(
                    "does not chain to the root certificates in \(folder)/other.crt"))
            // The chain, not the name: 127.0.0.2 is not in the certificate.
            let right = try store(
                host: "127.0.0.2", "sslmode=\(mode)&sslrootcert=\(folder)/root.crt", name: "tls-\(mode)")
            try await right.open()
            await right.close()
        }
    }

    @Test("sslmode verify-full and verify-ca accept a certificate of the trusted root that names the host")
    func verified() async throws {
        for mode in ["verify-full", "verify-ca"] {
            let name = "tls-\(mode)-\(UUID().uuidString.prefix(8))"
            let store = try store("sslmode=\(mode)&sslrootcert=\(folder)/root.crt", name: name)
            _ = try await store.upload(name: "Ann", points: 1)
            #expect(try await encrypted(name) == true, "sslmode=\(mode)")
            await store.close()
        }
    }

    @Test("a certificate of another root is refused as unreachable, naming the root file")
    func otherRoot() async throws {
        let store = try store("sslmode=verify-ca&sslrootcert=\(folder)/other.crt", name: "tls-other")
        let error = await #expect(throws: ScoreStoreError.self) { try await store.open() }
        #expect(
            error
                == .unreachable(
                    .server(endpoint: "127.0.0.1:\(base.port)"),
                    reason: "the server's certificate does not "
                        + "chain to the root certificates in \(folder)/other.crt, as sslmode=verify-ca requires"
                ))
    }

    @Test("sslmode verify-full refuses a certificate that does not name the host; verify-ca accepts it")
    func otherName() async throws {
        let full = try store(
            host: "127.0.0.2", "sslmode=verify-full&sslrootcert=\(folder)/root.crt", name: "tls-name")
        let error = await #expect(throws: ScoreStoreError.self) { try await full.open() }
        #expect(
            error
                == .unreachable(
                    .server(endpoint: "127.0.0.2:\(base.port)"),
                    reason: "the server's certificate does not "
                        + "name 127.0.0.2, as sslmode=verify-full requires (sslmode=verify-ca checks the certificate but "
                        + "not the name)"))
        let ca = try store(
            host: "127.0.0.2", "sslmode=verify-ca&sslrootcert=\(folder)/root.crt", name: "tls-ca")
        try await ca.open()
        await ca.close()
    }
}
