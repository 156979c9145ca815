/// Writes the records of the inputs to two outputs as they are checked: valid records to one,
/// invalid and malformed records to the other (`--valid` and `--invalid`), byte for byte as read
/// and in input order.
///
/// Every byte of an input goes to exactly one output, except a CSV header row, which goes to both:
/// an invalid or malformed record's bytes, from its first byte to the end of its line break, go to
/// the rejected output, and everything else (valid records, blank lines) to the valid one. A byte
/// order mark is part of the first line, so it goes with the first record. Concatenating the two
/// gives back the input, its header apart.
///
/// The readers give it every byte they read, with its offset in the input, and
/// then decide each stretch of it, in order; it holds only the bytes read and not yet decided,
/// which is at most a chunk, or a record in the one-record-at-a-time reader. Bytes held beyond
/// `holdLimit` can only be part of a record too long to read, which is malformed: they go to the
/// rejected output as they come, so memory stays bounded whatever the input (blank lines just
/// before such a record, held with it, go there too).
public final class RecordSplit {
    /// One of the two outputs.
    private final class Output {
        let write: (UnsafeRawBufferPointer) -> Void
        /// Whether anything was written and the last byte was not a line break.
        var endsMidLine = false
        /// Whether the next byte written starts another input.
        var startsInput = false
        /// The last header row written, so that the header of several inputs is written once.
        var header: [UInt8]?

        init(_ write: @escaping (UnsafeRawBufferPointer) -> Void) { self.write = write }

        func put(_ bytes: UnsafeRawBufferPointer) {
            guard let last = bytes.last else { return }
            if startsInput && endsMidLine {
                // The last record of the input before lacked its line break: the next input's
                // first record would otherwise be glued to it.
                withUnsafeBytes(of: UInt8(ascii: "\n")) { write($0) }
            }
            startsInput = false
            write(bytes)
            endsMidLine = last != UInt8(ascii: "\n")
        }
    }

    private let valid: Output?
    private let rejected: Output?
    /// The bytes read and not yet decided, from `held` on.
    private var pending: [UInt8] = []
    private var held = 0
    /// The input offset of `pending[held]`: every byte before it has been decided.
    private var decided = 0
    /// A chunk's bytes for each output, gathered to be written at once.
    private var gatheredValid: [UInt8] = []
    private var gatheredRejected: [UInt8] = []
    /// The most bytes held undecided before the oldest are taken to belong to an over-long
    /// record.
    let holdLimit: Int

    /// A split writing valid records with `valid` and the others with `rejected`; either may be
    /// nil, and those records are then not written.
    ///
    /// `holdLimit` must be more than the longest record a reader reads whole, with the bytes its
    /// buffer reads ahead.
    public init(
        valid: ((UnsafeRawBufferPointer) -> Void)?, rejected: ((UnsafeRawBufferPointer) -> Void)?,
        holdLimit: Int = 3 * (8 << 20)
    ) {
        self.valid = valid.map(Output.init)
        self.rejected = rejected.map(Output.init)
        self.holdLimit = holdLimit
    }

    /// Starts the next input: offsets count from its start, and whatever was left undecided of
    /// the input before (records after an interruption or a stop, an input that cannot be used)
    /// is dropped.
    public func startInput() {
        pending.removeAll(keepingCapacity: true)
        held = 0
        decided = 0
        valid?.startsInput = true
        rejected?.startsInput = true
    }

    /// Ends an input read to its end: what is left undecided, blank lines after the last record,
    /// goes to the valid output.
    public func finishInput() {
        move(upTo: decided + pending.count - held, to: valid)
    }

    /// Bytes read from the input at `offset`; bytes already given are ignored, so readers that
    /// read the same bytes again (a hand-over between readers) may give them again.
    func take(_ bytes: UnsafeRawBufferPointer, at offset: Int) {
        let end = decided + pending.count - held
        guard offset + bytes.count > end, offset <= end else { return }
        pending.append(contentsOf: bytes[(end - offset)...])
        if pending.count - held > holdLimit { move(upTo: end + bytes.count - holdLimit, to: rejected) }
    }

    /// Takes a checked chunk at `offset`, whose invalid and malformed records lie in `rejected`,
    /// and decides all of it.
    func take(_ chunk: UnsafeBufferPointer<UInt8>, at offset: Int, rejecting rejected: [Range<Int>]) {
        guard pending.count == held, decided == offset else {
            take(UnsafeRawBufferPointer(chunk), at: offset)
            for span in rejected { reject(span) }
            accept(upTo: offset + chunk.count)
            return
        }
        // Nothing is held and the chunk comes next, as it does but for the first: its stretches
        // are gathered for each output and written once, not held and written span by span
        // (which cost 0.7 s of CPU on 10M records).
        gatheredValid.removeAll(keepingCapacity: true)
        gatheredRejected.removeAll(keepingCapacity: true)
        var cursor = 0
        for span in rejected {
            let lower = span.lowerBound - offset
            let upper = span.upperBound - offset
            if valid != nil { gatheredValid.append(contentsOf: chunk[cursor..<lower]) }
            if self.rejected != nil { gatheredRejected.append(contentsOf: chunk[lower..<upper]) }
            cursor = upper
        }
        if valid != nil { gatheredValid.append(contentsOf: chunk[cursor...]) }
        gatheredValid.withUnsafeBytes { valid?.put($0) }
        gatheredRejected.withUnsafeBytes { self.rejected?.put($0) }
        decided = offset + chunk.count
    }

    /// Decides the bytes before `end`: they are valid records or lie between records.
    func accept(upTo end: Int) {
        move(upTo: end, to: valid)
    }

    /// Decides the bytes up to `span`'s end: the record in `span` is invalid or malformed, what
    /// comes before it lies between records or is valid.
    func reject(_ span: Range<Int>) {
        move(upTo: span.lowerBound, to: valid)
        move(upTo: span.upperBound, to: rejected)
    }

    /// Decides the bytes up to `span`'s end: `span` is the CSV header row, written to both outputs
    /// unless each wrote the same bytes as its last header.
    func header(_ span: Range<Int>) {
        move(upTo: span.lowerBound, to: valid)
        let count = Swift.min(span.upperBound - decided, pending.count - held)
        guard count > 0 else { return }
        pending.withUnsafeBytes { all in
            let row = UnsafeRawBufferPointer(rebasing: all[held..<(held + count)])
            for output in [valid, rejected].compactMap({ $0 })
            where output.header.map({ !$0.elementsEqual(row) }) ?? true {
                output.put(row)
                output.header = Array(row)
            }
        }
        drop(count)
    }

    /// Writes the held bytes before `end` to `output` (none when nil) and drops them.
    private func move(upTo end: Int, to output: Output?) {
        let count = Swift.min(end - decided, pending.count - held)
        guard count > 0 else { return }
        if let output {
            pending.withUnsafeBytes {
                output.put(UnsafeRawBufferPointer(rebasing: $0[held..<(held + count)]))
            }
        }
        drop(count)
    }

    private func drop(_ count: Int) {
        held += count
        decided += count
        if held == pending.count {
            pending.removeAll(keepingCapacity: true)
            held = 0
        } else if held >= 1 << 20 && held * 2 >= pending.count {
            pending.removeFirst(held)
            held = 0
        }
    }
}
