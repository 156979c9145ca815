import Foundation
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormTerminalTesting
import PlayerFormText
import PropertyBased
import Testing

@testable import PlayerFormTerminal

/// The quick ways a script's lines are read and run, each checked against the general way it
/// stands next to, on random input.
@Suite("Script lines: the quick paths agree with the general ones")
struct ScriptSpeedPathTests {
    @Test("a line's bytes read as text exactly as String(validating:) reads them")
    func lineText() async {
        await propertyCheck(count: 3000, input: generatedLineBytes) { bytes in
            #expect(REPLSession.text(ofLine: bytes) == String(validating: bytes, as: UTF8.self), "\(bytes)")
        }
    }

    @Test("a number typed at the REPL is read as the standard library reads it, to the bit")
    func typedNumbers() async {
        await propertyCheck(count: 3000, input: generatedNumberText) { text in checkNumber(text) }
        await propertyCheck(count: 3000, input: generatedWellFormedNumber) { text in checkNumber(text) }
        func checkNumber(_ text: String) {
            let quick = Result { () throws(CommandError) in try CommandParser.number(text) }
            let general = Result { () throws(CommandError) in try standardLibraryNumber(text) }
            switch (quick, general) {
            case (.success(let a), .success(let b)):
                #expect(a.bitPattern == b.bitPattern, "\(text): \(a) against \(b)")
            case (.failure(let a), .failure(let b)):
                #expect(a.message == b.message, "\(text)")
            default:
                Issue.record("\(text): \(quick) against \(general)")
            }
        }
    }

    @Test("the distance bounded by a limit is Levenshtein's, or above the limit when that is")
    func boundedEditDistance() async {
        await propertyCheck(count: 3000, input: generatedWord, generatedWord, Gen.int(in: 0...3)) {
            word, name, limit in
            var typed = word
            let bounded = typed.withUTF8 {
                CommandCatalog.editDistance($0, Array(name.utf8), limit: limit)
            }
            let exact = levenshtein(Array(word.utf8), Array(name.utf8))
            #expect(Swift.min(bounded, limit + 1) == Swift.min(exact, limit + 1), "\(word) \(name) \(limit)")
            #expect(exact > limit || bounded == exact, "\(word) \(name) \(limit)")
        }
    }
}

/// A number read as the REPL read it before it shared the records' reading: the literal checked,
/// then the standard library's `Double(_:)`, with -0 as 0.
private func standardLibraryNumber(_ text: String) throws(CommandError) -> Double {
    guard DecimalText.isLiteral(text), let value = Double(text) else {
        throw CommandError(
            "\(TerminalText.quoted(text)) is not a number; type a decimal number such as 12, -3.5 or 1e3.")
    }
    guard value.isFinite else {
        throw CommandError(
            "\(TerminalText.quoted(text)) is too large; numbers must lie between -1.79e308 and 1.79e308.")
    }
    return value == 0 ? 0 : value
}

/// Levenshtein distance, the textbook way.
private func levenshtein(_ a: [UInt8], _ b: [UInt8]) -> Int {
    var previous = Array(0...b.count)
    for (i, left) in a.enumerated() {
        var current = [i + 1]
        for (j, right) in b.enumerated() {
            current.append(
                Swift.min(previous[j + 1] + 1, current[j] + 1, previous[j] + (left == right ? 0 : 1)))
        }
        previous = current
    }
    return previous[b.count]
}

/// Bytes of lines: ASCII, characters of two to four bytes, and bytes that are no UTF-8 (lone
/// continuation bytes, lead bytes without their continuation, overlong forms, surrogates).
private let linePieces: [[UInt8]] = [
    Array("up 3".utf8), Array(" ".utf8), Array("\t".utf8), Array("a".utf8), Array("~".utf8), [0x7F], [0x00],
    Array("é".utf8), Array("名".utf8), Array("👨".utf8), [0x80], [0xBF], [0xC0, 0xAF], [0xC2],
    [0xE0, 0x80, 0x80],
    [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5], [0xFF], [0xE2, 0x82],
]

private let generatedLineBytes = Gen.element(of: linePieces).map { $0 ?? [] }.array(of: 0...6).map {
    $0.flatMap { $0 }
}

/// Texts of numbers: mostly digits, with signs, points and exponents where they belong and where
/// they do not, up to 20 characters, so that both sides of the 15-digit limit are met.
private let generatedNumberText = Gen.element(of: [
    "0", "1", "2", "3", "4", "5", "6", "7", "8", "9", "9", "0", ".", "-", "+", "e", " ", "x",
])
.map { $0 ?? "" }.array(of: 0...20).map { $0.joined() }

private let generatedDigits = Gen.element(of: Array("0123456789")).map { $0.map(String.init) ?? "" }
    .array(of: 0...18).map { $0.joined() }

/// Numbers the way scripts type them, a sign, digits, a point and more digits, each part there or
/// not, from none to 18 digits before the point.
private let generatedWellFormedNumber = zip(
    Gen.element(of: ["", "-", "+"]).map { $0 ?? "" }, generatedDigits,
    Gen.element(of: ["", "."]).map { $0 ?? "" }, generatedDigits
)
.map { sign, whole, point, fraction in sign + whole + point + fraction }

/// Words near and far from the command words.
private let generatedWord = Gen.element(of: [
    "n", "a", "m", "e", "u", "p", "s", "h", "o", "w", "x", "é", "\\", "i",
])
.map { $0 ?? "" }.array(of: 0...8).map { $0.joined() }

@Suite("Refusals: the kept text is the text worded afresh")
struct RefusalTextTests {
    @Test("a refusal's text is its words escaped, whether it repeats the last one or not")
    func keptTextMatches() async {
        let refusals: [PlayerRefusal] = [
            .noPointUpdatesLeft(limit: 10), .noPointUpdatesLeft(limit: 1), .locked(uploads: 5),
            .locked(uploads: 1),
            .invalidPressCount(0), .invalidPressCount(-3), .uploadInProgress, .notANumber,
            .invalid([.emptyName]), .stepTooSmall(step: 0.5, points: 1e20),
            .stepNotExact(step: 0.1, points: 3),
            .stepTooSmall(step: 0, points: -0.0), .stepTooSmall(step: 0, points: 0),
        ]
        await propertyCheck(count: 300, input: Gen.element(of: refusals).array(of: 1...20)) { picked in
            for refusal in picked.compactMap({ $0 }) {
                #expect(
                    FormRenderer.refusalText(refusal) == TerminalText.escaped(refusal.description),
                    "\(refusal)")
            }
        }
    }
}

@Suite("Suggestions: the kept answer is the answer worked out")
struct KeptSuggestionTests {
    @Test("asked in any order, with repeats, a word is suggested what working it out suggests")
    func keptSuggestionMatches() async {
        // Canonically equivalent spellings (é as one scalar and as e with a combining accent) are
        // equal strings with different bytes.
        let words = [
            "nmae", "shwo", "sh", "up", "x", "", "é", "e\u{301}", "shé", "she\u{301}", "pont", "NAME", "hlep",
        ]
        await propertyCheck(count: 300, input: Gen.element(of: words).array(of: 1...20)) { picked in
            for word in picked.compactMap({ $0 }) {
                #expect(
                    CommandCatalog.suggestion(for: word) == CommandCatalog.closestCommand(to: word), "\(word)"
                )
            }
        }
    }
}
