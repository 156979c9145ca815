// Measures the roster at scale: a window of 40 rows over 1,000,000 in-memory players next to the
// same window over 1,000 (time to the first page, memory, moving the window, an add, another
// client's change); a refresh from a score database of 100,000 players; the changeset for one
// upload into 100,000 rows; and one upload into a database holding 1,000 versus 100,000 records
// (an upload must not depend on the store's size).
//
// Written against the public API of PlayerForm, PlayerFormSQLite and PlayerFormTerminal. Run it with
// Benchmarks/roster.sh, which builds it in release mode; ROSTER_PLAYERS sets the size of the
// file and changeset sections, WINDOW_PLAYERS the large in-memory roster.
import Foundation
import PlayerForm
import PlayerFormSQLite
import PlayerFormScores
import PlayerFormTerminal
import ReactiveCore
import ReactiveTable

let players = ProcessInfo.processInfo.environment["ROSTER_PLAYERS"].flatMap(Int.init) ?? 100_000
let windowPlayers = ProcessInfo.processInfo.environment["WINDOW_PLAYERS"].flatMap(Int.init) ?? 1_000_000
let folder = FileManager.default.temporaryDirectory.appendingPathComponent("roster-benchmark-\(UUID())")
try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(at: folder) }

// MARK: Measuring

func milliseconds(_ body: () throws -> Void) rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func milliseconds(_ body: () async throws -> Void) async rethrows -> Double {
    let start = DispatchTime.now().uptimeNanoseconds
    try await body()
    return Double(DispatchTime.now().uptimeNanoseconds - start) / 1_000_000
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1
        ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

/// Resident memory of this process, in MiB, from /proc/self/status.
func residentMiB() -> Double {
    let status = (try? String(contentsOfFile: "/proc/self/status", encoding: .utf8)) ?? ""
    let line = status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") } ?? ""
    let kib =
        Double(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
    return kib / 1024
}

func format(_ value: Double) -> String {
    String(format: value < 10 ? "%.3f" : "%.1f", value)
}

/// A score database of `count` uploads, one name each, kept as an import keeps records (a batch
/// a transaction): uploading 100,000 records one by one would spend minutes in fsync.
func makeDatabase(at path: String, count: Int) async throws -> SQLiteScoreStore {
    let store = try SQLiteScoreStore(path: path)
    let time = Date(timeIntervalSince1970: 1_763_709_189.123)
    var batch = RecordBatch()
    for index in 0..<count {
        batch.append(
            ScoreRecord(id: UUID(), name: "Player \(index)", points: Double(index % 10_000), uploadedAt: time))
        if batch.count == store.keepBatchSize || index == count - 1 {
            let kept = try await store.keep(batch)
            precondition(kept.added == batch.count, "the score database is not as expected")
            batch.removeAll()
        }
    }
    return store
}

print("roster benchmark: \(players) players, \(ProcessInfo.processInfo.activeProcessorCount) cores")

// MARK: A window over a large roster

/// A store of `count` players, one record each, made in one pass.
func inMemoryStore(_ count: Int) -> InMemoryScoreStore {
    InMemoryScoreStore(
        records: (0..<count).map {
            ScoreRecord(
                id: UUID(), name: "Player \($0)", points: Double($0 % 10_000),
                uploadedAt: Date(timeIntervalSince1970: 0))
        })
}

/// What one roster size measured.
struct WindowFigures {
    var firstPage: [Double] = []
    var move: [Double] = []
    var add: [Double] = []
    var catchUp: [Double] = []
    var memory = 0.0
}

let windowSize = 40
let smallRoster = 1_000
var storeTime = 0.0
var stores: [Int: InMemoryScoreStore] = [:]
for size in [smallRoster, windowPlayers] {
    let time = milliseconds { stores[size] = inMemoryStore(size) }
    if size == windowPlayers { storeTime = time }
}
var figures: [Int: WindowFigures] = [smallRoster: WindowFigures(), windowPlayers: WindowFigures()]
var kept: [(RosterViewModel, TableBinding<PlayerRowTemplate>)] = []
for run in 0..<11 {
    // Side by side, alternating, so that both sizes see the same machine.
    for size in [smallRoster, windowPlayers] {
        let store = stores[size]!
        let before = residentMiB()
        var roster: RosterViewModel!
        var table: TableBinding<PlayerRowTemplate>!
        let first = try await milliseconds {
            roster = RosterViewModel(store: store, windowSize: windowSize)
            table = TableBinding(window: roster.window, selection: roster.rowSelected)
            try await roster.refresh.apply(())
        }
        // Kept alive, so that the memory of each roster adds up and is not reused.
        kept.append((roster, table))
        figures[size]!.memory += residentMiB() - before
        precondition(table.count == windowSize && roster.rowViewModelsMade == windowSize)
        figures[size]!.firstPage.append(first)
        let page = (run * 7919) % (size / windowSize)
        figures[size]!.move.append(
            try await milliseconds { try await roster.moveWindow.apply(page * windowSize) })
        roster.newNameEdited("Added \(run)")
        roster.newPointsEdited(1)
        figures[size]!.add.append(try await milliseconds { try await roster.addTapped() })
        _ = try await store.upload(name: "Elsewhere \(run)", points: 2)
        figures[size]!.catchUp.append(try await milliseconds { try await roster.refreshIfStoreChanged() })
        precondition(roster.rowViewModelsMade == windowSize, "rows were made, not reused")
    }
}
kept.removeAll()
print(
    "window of \(windowSize) rows over \(windowPlayers) in-memory players, next to the same over \(smallRoster) (11 runs each):"
)
print(
    "  making the store of \(windowPlayers) players from records (not the roster's cost): \(format(storeTime)) ms"
)
for (label, pick) in [
    ("roster + table + first page", \WindowFigures.firstPage), ("moving the window to another page", \.move),
    ("add of one player, through to the rows in view", \.add),
    ("catching up with another client's upload", \.catchUp),
] as [(String, KeyPath<WindowFigures, [Double]>)] {
    let large = median(figures[windowPlayers]![keyPath: pick])
    let base = median(figures[smallRoster]![keyPath: pick])
    print(
        "  \(label): median \(format(large)) ms at \(windowPlayers), \(format(base)) ms at \(smallRoster); ratio \(format(large / base))"
    )
}
print(
    "  memory per roster and table: \(format(figures[windowPlayers]!.memory / 11)) MiB at \(windowPlayers), "
        + "\(format(figures[smallRoster]!.memory / 11)) MiB at \(smallRoster) (resident, mean of 11)")
stores.removeAll()

// MARK: Refresh of a large roster

let bigStore = try await makeDatabase(at: folder.appendingPathComponent("big.sqlite").path, count: players)

// Memory first, in a process that has not yet freed anything the roster could reuse.
let residentBefore = residentMiB()
var measured: RosterViewModel? = RosterViewModel(store: bigStore)
var refreshTimes = [try await milliseconds { try await measured!.refresh.apply(()) }]
precondition(measured!.playerCount.value == players)
let memory = residentMiB() - residentBefore
measured = nil

for _ in 0..<4 {
    let roster = RosterViewModel(store: bigStore)
    refreshTimes.append(try await milliseconds { try await roster.refresh.apply(()) })
}
print("refresh, \(players) players from the database: median \(format(median(refreshTimes))) ms (5 runs)")
print(
    "memory held by a refreshed roster of \(players) players: \(format(memory)) MiB resident, "
        + "\(format(memory * 1_048_576 / Double(players))) bytes per player")

// MARK: One upload into a large roster

let inMemory = InMemoryScoreStore()
for index in 0..<players {
    _ = try await inMemory.upload(name: "Player \(index)", points: Double(index % 10_000))
}
let roster = RosterViewModel(store: inMemory)
try await roster.refresh.apply(())
var allPlayers = try await inMemory.players(from: 0, limit: players)

var changesetTimes: [Double] = []
var movedTimes: [Double] = []
var addTimes: [Double] = []
for run in 0..<21 {
    let old = allPlayers
    let new = old + [Player(name: "New \(run)", points: 1, uploadedAt: Date(), recordIDs: [UUID()])]
    var changeset = Changeset()
    changesetTimes.append(milliseconds { changeset = Changeset(old: old, new: new) })
    precondition(changeset == Changeset(insertions: [old.count]))
    // Baseline: the first player moved to the end, so no common prefix or suffix helps and every
    // row is hashed, as a diff without the prefix and suffix scan would for any change.
    let moved = Array(old.dropFirst()) + [old[0]]
    movedTimes.append(milliseconds { changeset = Changeset(old: old, new: moved) })
    precondition(changeset == Changeset(deletions: [0], insertions: [old.count - 1]))
    roster.newNameEdited("Added \(run)")
    roster.newPointsEdited(7)
    addTimes.append(try await milliseconds { try await roster.addTapped() })
    allPlayers = new
}
let changesetMedian = median(changesetTimes)
let movedMedian = median(movedTimes)
print(
    "changeset for one insertion into \(players) rows: median \(format(changesetMedian)) ms (21 runs); "
        + "target 50 ms, ratio to target \(format(changesetMedian / 50))")
print(
    "  baseline, changeset hashing every row (first row moved to the end): median \(format(movedMedian)) ms; "
        + "ratio insertion / baseline \(format(changesetMedian / movedMedian))")
print(
    "roster add of one player among \(players) (in-memory store, window and changeset included): "
        + "median \(format(median(addTimes))) ms (21 runs)")

// MARK: Uploading to a small and a large database

let small = try await makeDatabase(at: folder.appendingPathComponent("small.sqlite").path, count: 1_000)
var smallTimes: [Double] = []
var bigTimes: [Double] = []
for run in 0..<200 {
    // Side by side, alternating, so that both see the same disk and load.
    smallTimes.append(try await milliseconds { _ = try await small.upload(name: "Small \(run)", points: 1) })
    bigTimes.append(try await milliseconds { _ = try await bigStore.upload(name: "Big \(run)", points: 1) })
}
let smallMedian = median(smallTimes)
let bigMedian = median(bigTimes)
print(
    "upload with its commit synced, 1,000 records in the database: median \(format(smallMedian)) ms (200 runs)"
)
print(
    "upload with its commit synced, \(players) records in the database: median \(format(bigMedian)) ms (200 runs); "
        + "ratio to 1,000 \(format(bigMedian / smallMedian))")
