import PlayerFormRules

/// The players seen so far in an input, by their comparison key (`PlayerName.comparisonKey`), with
/// the line each was first seen on: what `--unique` checks against.
///
/// It holds every distinct name of the input, so its memory grows with them.
public final class UniqueNames {
    private var firstLines: [String: Int] = [:]

    /// None seen yet.
    public init() {}

    /// The line `name`'s player was first seen on, or nil when it is new.
    ///
    /// A new player is noted as seen on `line`. A blank name (an empty key) names no player and is
    /// never a duplicate.
    public func firstLine(of name: String, line: Int) -> Int? {
        firstLine(ofKey: PlayerName.comparisonKey(name), line: line)
    }

    /// ``firstLine(of:line:)`` for a name whose key is `key`.
    func firstLine(ofKey key: String, line: Int) -> Int? {
        guard !key.isEmpty else { return nil }
        if let first = firstLines[key] { return first }
        firstLines[key] = line
        return nil
    }

    /// Tells which of the players noted in a chunk's `outcome` were seen before, in order, and
    /// makes those records invalid: counted, with their finding (a new one, or the problem added to
    /// the record's own) and, when the records are split, their place among the rejected ones.
    ///
    /// `reporting` says whether the chunk made findings; `countingReasons` whether reasons are
    /// counted without them.
    func resolve(_ outcome: inout ChunkOutcome, file: String, reporting: Bool, countingReasons: Bool) {
        var duplicates: [(entry: KeyNotes.Entry, first: Int)] = []
        for entry in outcome.players {
            if let first = firstLine(ofKey: entry.key, line: entry.place.line) {
                duplicates.append((entry, first))
            }
        }
        outcome.players = []
        guard !duplicates.isEmpty else { return }
        for (entry, _) in duplicates {
            if !entry.invalid { outcome.tally.invalid += 1 }
            if reporting || countingReasons {
                outcome.tally.reasons.add(.duplicateName, line: entry.place.line)
            }
        }
        if reporting {
            var findings: [Finding] = []
            var next = 0
            for (entry, first) in duplicates {
                while next < outcome.findings.count && outcome.findings[next].line < entry.place.line {
                    findings.append(outcome.findings[next])
                    next += 1
                }
                var problems: [Finding.Problem] = []
                if next < outcome.findings.count && outcome.findings[next].line == entry.place.line {
                    problems = outcome.findings[next].problems
                    next += 1
                }
                findings.append(
                    Finding(
                        file: file, place: entry.place, name: entry.name,
                        problems: problems + [.duplicate(firstLine: first)]))
            }
            findings.append(contentsOf: outcome.findings[next...])
            outcome.findings = findings
        }
        if outcome.splitting {
            let added = duplicates.filter { !$0.entry.invalid }.map { $0.entry.place.offset..<$0.entry.end }
            outcome.rejected = (outcome.rejected + added).sorted { $0.lowerBound < $1.lowerBound }
        }
    }
}

/// The players of a chunk's readable records, noted as they are checked, in input order, for
/// ``UniqueNames`` to tell on the calling thread which were seen before.
final class KeyNotes {
    struct Entry {
        /// The name's comparison key.
        let key: String
        let place: RecordPlace
        /// Where the record ends, after its line break; set once the record is read.
        var end: Int
        /// Whether the record broke a rule already.
        let invalid: Bool
        /// The name as read, kept when findings are made.
        let name: String?
    }

    private(set) var entries: [Entry] = []
    /// Whether names are kept for findings.
    let keepsNames: Bool
    /// The keys of names met before, on this checking thread.
    let keys: NameKeyCache

    init(keepingNames: Bool, keys: NameKeyCache = NameKeyCache()) {
        keepsNames = keepingNames
        self.keys = keys
    }

    func note(utf8Name name: UnsafeBufferPointer<UInt8>, at place: RecordPlace, invalid: Bool) {
        entries.append(
            Entry(
                key: keys.key(utf8Name: name), place: place, end: place.offset,
                invalid: invalid,
                name: keepsNames ? String(decoding: name, as: UTF8.self) : nil))
    }

    func note(name: String, at place: RecordPlace, invalid: Bool) {
        entries.append(
            Entry(
                key: PlayerName.comparisonKey(name), place: place, end: place.offset, invalid: invalid,
                name: keepsNames ? name : nil))
    }

    /// Sets where the record at `place`, the last noted, ends.
    func ended(at place: RecordPlace, end: Int) {
        guard let last = entries.indices.last, entries[last].place == place else { return }
        entries[last].end = end
    }

    /// Takes the entries, leaving none.
    func take() -> [Entry] {
        defer { entries = [] }
        return entries
    }
}

/// The comparison keys of the names beyond ASCII that one checking thread met last, by the
/// name's bytes: a name met again costs a hash and a comparison of its bytes instead of its
/// Unicode normalization (NFKC), which costs about twenty times what checking its record does.
///
/// A file of records names the same players again and again, so most names beyond ASCII are met
/// before. A name is kept in one of a fixed number of places chosen by its hash, replacing what
/// was there, so memory stays bounded whatever the file holds. An ASCII name's key is made from
/// its bytes at about the cost of a lookup, so it is not kept.
final class NameKeyCache {
    private static let places = 4_096
    // Made at the first name beyond ASCII: a checker that meets none, or checks no names for
    // --unique, costs nothing.
    private var hashes: [UInt64] = []
    private var names: [[UInt8]] = []
    private var keys: [String] = []

    /// `PlayerName.comparisonKey(utf8Name:)` of `name`.
    func key(utf8Name name: UnsafeBufferPointer<UInt8>) -> String {
        // FNV-1a over the bytes, noting on the way whether any is beyond ASCII.
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        var beyondASCII: UInt8 = 0
        for byte in name {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3
            beyondASCII |= byte
        }
        guard beyondASCII >= 0x80 else { return PlayerName.comparisonKey(utf8Name: name) }
        if hashes.isEmpty {
            hashes = Array(repeating: 0, count: Self.places)
            names = Array(repeating: [], count: Self.places)
            keys = Array(repeating: "", count: Self.places)
        }
        let place = Int(truncatingIfNeeded: hash) & (Self.places - 1)
        if hashes[place] == hash, names[place].elementsEqual(name) { return keys[place] }
        let key = PlayerName.comparisonKey(utf8Name: name)
        hashes[place] = hash
        names[place] = Array(name)
        keys[place] = key
        return key
    }
}
