// Measures the roster at scale: a refresh of 100,000 players and the memory it takes, the
// changeset for one upload into 100,000 rows, and the cost of one append to a score file holding
// 1,000 versus 100,000 records (appending must not depend on the file's size).
//
// Written against the public API of PlayerForm and PlayerFormStore. Run it with
// Benchmarks/roster.sh, which builds it in release mode; ROSTER_PLAYERS sets the roster size.
import Foundation
import PlayerForm
import PlayerFormStore
import ReactiveCore

let players = ProcessInfo.processInfo.environment["ROSTER_PLAYERS"].flatMap(Int.init) ?? 100_000
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

/// Writes a score file of `count` uploads, one name each, through the store's own format: one
/// record is uploaded through the store, and its line is repeated with new ids and names.
/// Uploading 100,000 records one by one would spend minutes in fsync.
func writeScoreFile(at path: String, count: Int) throws {
    let seed = FileScoreStore(path: path)
    let first = try seed.appendRecord(name: "Player 0", points: 0)
    let template = try String(contentsOfFile: path, encoding: .utf8)
    var text = template
    text.reserveCapacity(template.utf8.count * count)
    for index in 1..<count {
        text += template.replacingOccurrences(of: first.id.uuidString, with: UUID().uuidString)
            .replacingOccurrences(of: "\"Player 0\"", with: "\"Player \(index)\"")
            .replacingOccurrences(of: "\"points\":0", with: "\"points\":\(index % 10_000)")
    }
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    let contents = try seed.load()
    precondition(
        contents.records.count == count && contents.problems.isEmpty, "the score file is not as expected")
}

print("roster benchmark: \(players) players, \(ProcessInfo.processInfo.activeProcessorCount) cores")

// MARK: Refresh of a large roster

let bigFile = folder.appendingPathComponent("big.jsonl").path
try writeScoreFile(at: bigFile, count: players)
let bigStore = FileScoreStore(path: bigFile)

// Memory first, in a process that has not yet freed anything the roster could reuse.
let residentBefore = residentMiB()
var measured: RosterViewModel? = RosterViewModel(store: bigStore)
var refreshTimes = [try await milliseconds { try await measured!.refresh.apply(()) }]
precondition(measured!.players.value.count == players)
let memory = residentMiB() - residentBefore
measured = nil

var loadTimes: [Double] = []
var rosterTimes: [Double] = []
for _ in 0..<4 {
    let roster = RosterViewModel(store: bigStore)
    refreshTimes.append(try await milliseconds { try await roster.refresh.apply(()) })
    var records: [ScoreRecord] = []
    loadTimes.append(try milliseconds { records = try bigStore.load().records })
    rosterTimes.append(milliseconds { _ = Player.roster(from: records) })
}
print("refresh, \(players) players from the file: median \(format(median(refreshTimes))) ms (5 runs)")
print("  of which reading the file: median \(format(median(loadTimes))) ms (4 runs)")
print("  of which grouping records into players: median \(format(median(rosterTimes))) ms (4 runs)")
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

var changesetTimes: [Double] = []
var movedTimes: [Double] = []
var addTimes: [Double] = []
for run in 0..<21 {
    let old = roster.players.value
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
    "roster add of one player among \(players) (in-memory store, rows and changeset included): "
        + "median \(format(median(addTimes))) ms (21 runs)")

// MARK: A table bound to every row

let residentBeforeTable = residentMiB()
var table: TableBinding<PlayerRowTemplate>?
let bindTime = milliseconds { table = TableBinding(rows: roster.rows, selection: roster.rowSelected) }
let tableMemory = residentMiB() - residentBeforeTable
precondition(table!.count == roster.rows.value.count)
let announced = Locked<[String]>([])
let observation = table!.changes.observeValues { change in
    announced.withLock { $0.append(change.description) }
}
var tableAddTimes: [Double] = []
for run in 0..<21 {
    roster.newNameEdited("Shown \(run)")
    roster.newPointsEdited(3)
    tableAddTimes.append(try await milliseconds { try await roster.addTapped() })
}
observation.dispose()
precondition(
    announced.value.count == 21 && announced.value[0].hasPrefix("+ "), "\(announced.value.prefix(3))")
let rowCount = roster.rows.value.count
print(
    "table bound to all \(rowCount) rows: \(format(bindTime)) ms, \(format(tableMemory)) MiB resident, "
        + "\(format(tableMemory * 1_048_576 / Double(rowCount))) bytes per row")
print(
    "roster add with the table bound, through to its \"+\" line: median \(format(median(tableAddTimes))) ms "
        + "(21 runs); one line announced per add, e.g. \"\(announced.value[0])\"")
table = nil

// MARK: Appending to a small and a large file

let smallFile = folder.appendingPathComponent("small.jsonl").path
try writeScoreFile(at: smallFile, count: 1_000)
let small = FileScoreStore(path: smallFile)
var smallTimes: [Double] = []
var bigTimes: [Double] = []
for run in 0..<200 {
    // Side by side, alternating, so that both see the same disk and load.
    smallTimes.append(try milliseconds { _ = try small.appendRecord(name: "Small \(run)", points: 1) })
    bigTimes.append(try milliseconds { _ = try bigStore.appendRecord(name: "Big \(run)", points: 1) })
}
let smallMedian = median(smallTimes)
let bigMedian = median(bigTimes)
print("append with fsync, 1,000 records in the file: median \(format(smallMedian)) ms (200 runs)")
print(
    "append with fsync, \(players) records in the file: median \(format(bigMedian)) ms (200 runs); "
        + "ratio to 1,000 \(format(bigMedian / smallMedian))")
