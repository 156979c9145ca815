import ArgumentParser
import Foundation
import PlayerFormPostgres
import PlayerFormSQLite
import PlayerFormScores
import PlayerFormStore
import PlayerFormSystem
import PlayerFormTerminal
import PlayerFormText

/// `import` and `export` for a league on PostgreSQL: the same files and messages as for the
/// SQLite database.
enum LeagueTransfer {
    /// Records per transaction of an import.
    static let batchSize = 1_000

    /// Opens the league or ends the command with the error's status after its message.
    static func open(_ url: String) async throws -> PostgresScoreStore {
        switch await PlayerFormREPL.openLeague(url, environment: ProcessEnvironment.current()) {
        case .success(let store): return store
        case .failure(let error): throw ExitCode(StoreFailure.exitStatus(error))
        }
    }

    /// Imports each file into the league at `url`, in batches of one transaction each.
    static func importFiles(_ files: [String], into url: String) async throws {
        let store = try await open(url)
        var status: Int32 = 0
        for file in files {
            do {
                let deleted = try ScoreFileReader.deletedIDs(in: file)
                let reader = try ScoreFileReader(path: file)
                var (added, kept, removed) = (0, 0, 0)
                var problems: [String] = []
                var batch: [ScoreRecord] = []
                var lines: [Int] = []
                func flush() async throws {
                    guard !batch.isEmpty else { return }
                    let result: PostgresScoreStore.BatchResult
                    do {
                        result = try await store.keep(batch: batch)
                    } catch PostgresStoreError.server {
                        // The server refused a record of the batch, which undid the batch: each
                        // record on its own, so that only the refused ones are left out.
                        result = try await keepOneByOne()
                    }
                    added += result.added
                    kept += result.alreadyKept
                    for id in result.conflicts {
                        let line = lines[batch.firstIndex(where: { $0.id == id }) ?? 0]
                        problems.append(
                            "\(file):\(line): "
                                + StoreFailure.words(ScoreStoreError.conflictingRecord(id: id.uuidString)))
                    }
                    batch.removeAll(keepingCapacity: true)
                    lines.removeAll(keepingCapacity: true)
                }
                func keepOneByOne() async throws -> PostgresScoreStore.BatchResult {
                    var result = PostgresScoreStore.BatchResult()
                    for (record, line) in zip(batch, lines) {
                        do {
                            if try await store.keep(record) {
                                result.added += 1
                            } else {
                                result.alreadyKept += 1
                            }
                        } catch PostgresStoreError.conflictingRecord {
                            result.conflicts.append(record.id)
                        } catch PostgresStoreError.server(_, let state, let message) {
                            problems.append(
                                "\(file):\(line): the league refused the record (\(state): \(message))")
                        }
                    }
                    return result
                }
                while let item = try reader.next() {
                    switch item {
                    case .record(let record) where deleted.contains(record.id):
                        removed += 1
                    case .record(let record):
                        batch.append(record)
                        lines.append(reader.lineNumber)
                        if batch.count >= batchSize { try await flush() }
                    case .deletion(let ids):
                        try await flush()
                        try await store.delete(ids: ids)
                    case .problem(let message):
                        problems.append(message)
                    }
                }
                try await flush()
                // Each problem starts with the file and line it concerns.
                for problem in problems { PlayerFormCommand.Import.report(problem, label: "") }
                var line =
                    "\(file): \(added) \(added == 1 ? "record" : "records") added, \(kept) already kept"
                if removed > 0 { line += ", \(removed) deleted" }
                if !problems.isEmpty { line += ", \(problems.count) not imported" }
                PlayerFormCommand.Import.report(line, label: "note: ")
                if !problems.isEmpty { status = max(status, 65) }
            } catch let error as PostgresStoreError {
                PlayerFormCommand.Import.report(StoreFailure.words(error))
                throw ExitCode(StoreFailure.exitStatus(error))
            } catch let error as ScoreStoreError {
                PlayerFormCommand.Import.report(StoreFailure.words(error))
                throw ExitCode(StoreFailure.exitStatus(error))
            } catch let error as StoreError {
                PlayerFormCommand.Import.report(StoreFailure.words(error))
                status = max(status, StoreFailure.exitStatus(error))
            }
        }
        if status != 0 { throw ExitCode(status) }
    }

    /// Writes every record of the league at `url` to standard output, oldest first, as
    /// `playerform export` writes those of a SQLite database.
    static func export(_ url: String, csv: Bool) async throws {
        let store = try await open(url)
        let records: [ScoreRecord]
        do throws(ScoreStoreError) {
            records = try await store.records()
        } catch {
            PlayerFormCommand.Import.report(StoreFailure.words(error))
            throw ExitCode(StoreFailure.exitStatus(error))
        }
        var chunk: [UInt8] = []
        chunk.reserveCapacity(1 << 16)
        if csv { chunk.append(contentsOf: "id,name,points,uploadedAt\n".utf8) }
        do {
            for record in records {
                append(record, csv: csv, to: &chunk)
                if chunk.count >= 1 << 16 {
                    try PlayerFormCommand.Export.writeAll(chunk)
                    chunk.removeAll(keepingCapacity: true)
                }
            }
            if !chunk.isEmpty { try PlayerFormCommand.Export.writeAll(chunk) }
        } catch let error as PlayerFormCommand.Export.OutputError {
            PlayerFormCommand.Import.report("cannot write the export: \(error.reason)")
            throw ExitCode(74)
        }
    }

    /// One line of the export; the same bytes as the SQLite database's export (a spec compares
    /// them).
    static func append(_ record: ScoreRecord, csv: Bool, to chunk: inout [UInt8]) {
        let points =
            record.points == record.points.rounded() && abs(record.points) < 1e15
            ? String(Int64(record.points)) : "\(record.points)"
        let time = Timestamp.text(record.uploadedAt)
        if csv {
            chunk.append(contentsOf: "\(record.id.uuidString),\"".utf8)
            for byte in record.name.utf8 {
                if byte == UInt8(ascii: "\"") { chunk.append(byte) }
                chunk.append(byte)
            }
            chunk.append(contentsOf: "\",\(points),\(time)\n".utf8)
        } else {
            chunk.append(contentsOf: "{\"id\":\"\(record.id.uuidString)\",\"name\":".utf8)
            chunk.append(contentsOf: JSONText.quoted(record.name).utf8)
            chunk.append(contentsOf: ",\"points\":\(points),\"uploadedAt\":\"\(time)\"}\n".utf8)
        }
    }
}
