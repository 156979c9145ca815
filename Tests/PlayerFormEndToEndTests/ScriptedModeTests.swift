import Testing

@Suite("playerform in scripted mode")
struct ScriptedModeTests {
    @Test("placeholder")
    func placeholder() {
        #expect(Bool(true))
    }
}
