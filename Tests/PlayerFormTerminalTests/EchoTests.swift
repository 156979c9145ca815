import Foundation
import PlayerForm
import PlayerFormScores
import PlayerFormTerminalTesting
import Testing

@testable import PlayerFormTerminal

@Suite("--echo: a script's lines shown before their output")
struct EchoTests {
    @Test(
        "--echo shows a line as typed, and one holding escape sequences, C1 controls, bidirectional overrides or bytes that are not UTF-8 escaped, as every other view of user text"
    )
    func escapesWhatTheTerminalWouldObey() async {
        var script: [UInt8] = []
        for line in ["name Ann", #"\i x\y"#, "name \u{1B}[2Jx", "name C1\u{9B}31m", "name Zed\u{202E}evil"] {
            script += Array(line.utf8) + [0x0A]
        }
        script += [0x6E, 0x61, 0x6D, 0x65, 0x20, 0xFF, 0x41, 0x0A]
        let output = CapturedOutput()
        let session = REPLSession(
            form: PlayerViewModel(store: InMemoryScoreStore()), reader: ScriptedLineReader(bytes: script),
            output: output, options: REPLSession.Options(echo: true))
        _ = await session.run()
        let echoed = output.results.filter { $0.hasPrefix("name ") || $0.hasPrefix(#"\i"#) }
        #expect(
            echoed == [
                "name Ann", #"\i x\y"#, #"name \u{1B}[2Jx"#, #"name C1\u{9B}31m"#, #"name Zed\u{202E}evil"#,
                #"name \xFFA"#,
            ])
        #expect(
            output.lines.allSatisfy { line in
                let text: String
                switch line {
                case .out(let out): text = out
                case .error(let error): text = error
                }
                return !text.unicodeScalars.contains { $0 == "\u{1B}" || $0 == "\u{9B}" || $0 == "\u{202E}" }
            }, "nothing the terminal would obey reaches it")
    }
}
