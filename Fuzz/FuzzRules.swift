import Foundation
import PlayerFormRules
import PlayerFormText

/// libFuzzer entry point for the rules-file reader, `PlayerRules(configuration:path:)`.
///
/// Checks, beyond not crashing or hanging:
/// - rules that are accepted, written back as a rules file (`configuration`), read back equal,
///   and writing them again gives the same text;
/// - what is accepted is JSON that `JSONSerialization` accepts too, an object with the same keys
///   and the same name (the strict reader never accepts what JSON does not allow);
/// - a refusal is `.rejected`, has a message, a line and column inside the input; its own words
///   hold no character that could control a terminal, and shown escaped neither does the rest,
///   whatever bytes the input holds.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzRules(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    do {
        let rules = try PlayerRules(configuration: bytes, path: "fuzz.json")
        checkAccepted(bytes, rules)
    } catch {
        checkRefusal(bytes, error)
    }
    return 0
}

private func checkAccepted(_ bytes: [UInt8], _ rules: PlayerRules) {
    let text = rules.configuration
    let again: PlayerRules
    do {
        again = try PlayerRules(configuration: Array(text.utf8))
    } catch {
        fail("the rules written back are refused: \(error); text: \(text)")
    }
    check(again == rules, "the rules written back read as different rules: \(text)")
    check(again.configuration == text, "writing the rules again gives a different text")

    var body = bytes
    if body.starts(with: [0xEF, 0xBB, 0xBF]) { body.removeFirst(3) }
    guard let object = try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any] else {
        fail("accepted what JSONSerialization does not read as an object")
    }
    check(Set(object.keys).isSubset(of: PlayerRules.configurationKeys), "accepted an unknown key")
    if let name = object["name"] {
        // JSONSerialization drops a U+FEFF at the start or the end of a string; the reader keeps
        // it, as JSON requires (only a byte order mark at the start of the file is skipped).
        // Compared scalar by scalar: U+FEFF and a combining mark after it make one Character.
        func withoutFEFF(_ text: String) -> [Unicode.Scalar] {
            text.unicodeScalars.filter { $0 != "\u{FEFF}" }
        }
        check(
            (name as? String).map(withoutFEFF) == withoutFEFF(rules.name),
            "a different name than JSONSerialization")
    }
}

/// Stops the run with `message` on standard error when `condition` is false; unlike precondition,
/// the message is kept in an optimized build.
private func check(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition { fail(message()) }
}

private func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("fuzz-rules: \(message)\n".utf8))
    abort()
}

private func checkRefusal(_ bytes: [UInt8], _ error: RulesFileError) {
    check(error.reason == .rejected, "bytes in memory reported as unreadable")
    check(!error.message.parts.isEmpty, "a refusal without a message")
    // The program's own words never carry the file's bytes; text from the file is kept apart, and
    // shown escaped, a front end's showing, has no character that could control a terminal.
    for case .words(let words) in error.message.parts {
        let scalars = Array(words.unicodeScalars)
        check(
            scalars.indices.allSatisfy { TerminalText.isShownAsIs(scalars, at: $0) },
            "words with a character that could control a terminal: \(words.debugDescription)")
    }
    let shown = error.text(path: TerminalText.escaped, found: TerminalText.quoted)
    let scalars = Array(shown.unicodeScalars)
    check(
        scalars.indices.allSatisfy { TerminalText.isShownAsIs(scalars, at: $0) },
        "a message with a character that could control a terminal: \(shown.debugDescription)")
    check((error.line == nil) == (error.column == nil), "a line without a column, or the reverse")
    if let line = error.line, let column = error.column {
        let lines = bytes.count { $0 == 0x0A } + 1
        check(line >= 1 && line <= lines, "a line outside the input")
        check(column >= 1 && column <= bytes.count + 1, "a column outside the input")
    }
}
