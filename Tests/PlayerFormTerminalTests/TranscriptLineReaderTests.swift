import PlayerFormTerminal
import PlayerFormTerminalTesting
import Testing

@Suite("Transcript line reader")
struct TranscriptLineReaderTests {
    @Test("each line read, answers included, is marked with how many lines were written before it")
    func marks() async {
        let output = CapturedOutput()
        let reader = TranscriptLineReader(ScriptedLineReader(text: "up\ny\n"), output: output)
        #expect(!reader.isInteractive)
        output.write("greeting")
        #expect(await reader.read(prompt: "") == .line(Array("up".utf8)))
        output.write("points: 101")
        output.writeError("an error")
        #expect(await reader.answer(prompt: "Sure? ") == .line(Array("y".utf8)))
        #expect(await reader.read(prompt: "") == .end)
        #expect(reader.outputBeforeLine == [1, 3, 3])
    }
}
