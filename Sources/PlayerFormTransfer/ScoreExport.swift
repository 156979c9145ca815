import Foundation
import PlayerFormScores
import PlayerFormText
import Synchronization

/// The text formats of an export.
public enum ExportFormat: String, Sendable, CaseIterable {
    /// One JSON object per line: `{"id":…,"name":…,"points":…,"uploadedAt":…}`.
    case jsonl
    /// A header row `id,name,points,uploadedAt`, then one row per record; names are quoted.
    case csv
}

/// Writes every record of any `ScoreStore` as a score file: the one export of SQLite databases
/// and leagues, which ``ScoreImport`` and `playerform validate` read back.
public enum ScoreExport {
    /// Writes every record of `store`, oldest first, in `format`, streaming as far as the store
    /// does (`ScoreStore.exportRecords(_:)`): `write` is given chunks of text of bounded size.
    ///
    /// - Parameters:
    ///   - store: the store whose records are written.
    ///   - format: JSON Lines or CSV.
    ///   - progress: told the number of records written, now and then.
    ///   - write: given each chunk of text; false stops the export (the caller keeps why).
    /// - Returns: the number of records written, and whether every chunk was written.
    /// - Throws: `ScoreStoreError` when the store fails.
    public static func export(
        _ store: any ScoreStore, format: ExportFormat,
        progress: @escaping @Sendable (Int) -> Void = { _ in },
        write: @escaping @Sendable ([UInt8]) -> Bool
    ) async throws(ScoreStoreError) -> (count: Int, complete: Bool) {
        let chunks = Chunks(format: format, progress: progress, write: write)
        try await store.exportRecords { records in chunks.add(records) }
        return chunks.finish()
    }

    /// Appends `record` as one line of `format` to `chunk`.
    public static func append(_ record: ScoreRecord, format: ExportFormat, to chunk: inout [UInt8]) {
        let points = pointsText(record.points)
        let time = Timestamp.text(record.uploadedAt)
        switch format {
        case .jsonl:
            chunk.append(contentsOf: "{\"id\":\"\(record.id.uuidString)\",\"name\":".utf8)
            chunk.append(contentsOf: JSONText.quoted(record.name).utf8)
            chunk.append(contentsOf: ",\"points\":\(points),\"uploadedAt\":\"\(time)\"}\n".utf8)
        case .csv:
            chunk.append(contentsOf: "\(record.id.uuidString),\"".utf8)
            for byte in record.name.utf8 {
                if byte == UInt8(ascii: "\"") { chunk.append(byte) }
                chunk.append(byte)
            }
            chunk.append(contentsOf: "\",\(points),\(time)\n".utf8)
        }
    }

    /// The header line of `format`, if it has one.
    public static func header(_ format: ExportFormat) -> [UInt8] {
        format == .csv ? Array("id,name,points,uploadedAt\n".utf8) : []
    }

    /// Points as JSON and CSV write them: whole numbers without a fraction, others in Swift's
    /// shortest form that reads back to the same number.
    public static func pointsText(_ points: Double) -> String {
        if points == points.rounded(), abs(points) < 1e15 { return String(Int64(points)) }
        return "\(points)"
    }

    /// The text of an export, made from the pages a store hands over one after another and
    /// written a chunk of about 64 KiB at a time.
    private final class Chunks: Sendable {
        private struct State {
            var chunk: [UInt8]
            var count = 0
            var complete = true
        }

        private let format: ExportFormat
        private let progress: @Sendable (Int) -> Void
        private let write: @Sendable ([UInt8]) -> Bool
        private let state: Mutex<State>

        init(
            format: ExportFormat, progress: @escaping @Sendable (Int) -> Void,
            write: @escaping @Sendable ([UInt8]) -> Bool
        ) {
            self.format = format
            self.progress = progress
            self.write = write
            var chunk = ScoreExport.header(format)
            chunk.reserveCapacity(1 << 16 + 4096)
            state = Mutex(State(chunk: chunk))
        }

        /// Adds a page; false once a chunk could not be written.
        func add(_ records: [ScoreRecord]) -> Bool {
            state.withLock { state in
                guard state.complete else { return false }
                for record in records {
                    ScoreExport.append(record, format: format, to: &state.chunk)
                    state.count += 1
                    guard state.chunk.count >= 1 << 16 else { continue }
                    guard write(state.chunk) else {
                        state.complete = false
                        return false
                    }
                    state.chunk.removeAll(keepingCapacity: true)
                    if state.count % 10_000 < 200 { progress(state.count) }
                }
                return true
            }
        }

        /// Writes what is left; the number of records, and whether every chunk was written.
        func finish() -> (count: Int, complete: Bool) {
            state.withLock { state in
                if state.complete, !state.chunk.isEmpty { state.complete = write(state.chunk) }
                state.chunk.removeAll()
                if state.complete { progress(state.count) }
                return (state.count, state.complete)
            }
        }
    }
}
