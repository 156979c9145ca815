import PlayerFormStore
import Testing

@Suite("StoreLocation")
struct StoreLocationTests {
    @Test("XDG_DATA_HOME, when absolute, holds playerform/scores.jsonl")
    func xdgDataHome() throws {
        let path = try StoreLocation.defaultPath(environment: [
            "XDG_DATA_HOME": "/data/", "HOME": "/home/ana",
        ])
        #expect(path == "/data/playerform/scores.jsonl")
    }

    @Test("without XDG_DATA_HOME, the file is under ~/.local/share")
    func home() throws {
        let path = try StoreLocation.defaultPath(environment: ["HOME": "/home/ana"])
        #expect(path == "/home/ana/.local/share/playerform/scores.jsonl")
    }

    @Test("an empty or relative XDG_DATA_HOME is ignored, as the XDG rules ask")
    func relativeXDGIgnored() throws {
        for value in ["", "data", "./data"] {
            let path = try StoreLocation.defaultPath(environment: [
                "XDG_DATA_HOME": value, "HOME": "/home/ana",
            ])
            #expect(path == "/home/ana/.local/share/playerform/scores.jsonl")
        }
    }

    @Test(
        "with neither an absolute XDG_DATA_HOME nor an absolute HOME there is no default, and the error says what to do"
    )
    func noDefault() {
        #expect(throws: StoreError.noDataDirectory) {
            try StoreLocation.defaultPath(environment: ["HOME": "relative"])
        }
        #expect(StoreError.noDataDirectory.description.contains("XDG_DATA_HOME nor HOME"))
    }
}
