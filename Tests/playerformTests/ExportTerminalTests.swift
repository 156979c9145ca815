import Testing

@testable import playerform

@Suite("Export to a terminal")
struct ExportTerminalTests {
    @Test("an export shown on a terminal escapes what a name holds that is not visible, and keeps the rest")
    func escapedOnTerminal() {
        let chunk = Array(
            "id,name,points,uploadedAt\nX,\"a\u{1B}[2J\u{202E}b \"\"q\"\" \\\\\",1,T\nY,\"two\nlines\",2,T\n"
                .utf8)
        #expect(
            String(decoding: PlayerFormCommand.Export.shownOnTerminal(chunk), as: UTF8.self)
                == "id,name,points,uploadedAt\nX,\"a\\u{1B}[2J\\u{202E}b \"\"q\"\" \\\\\",1,T\nY,\"two\nlines\",2,T\n"
        )
    }
}
