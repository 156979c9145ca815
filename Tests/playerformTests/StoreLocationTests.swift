import Testing

@testable import playerform

@Suite("StoreLocation")
struct StoreLocationTests {
    @Test("XDG_DATA_HOME, when absolute, holds playerform/scores.sqlite and the old scores.jsonl")
    func xdgDataHome() {
        let environment = ["XDG_DATA_HOME": "/data/", "HOME": "/home/ana"]
        #expect(StoreLocation.databasePath(environment: environment) == "/data/playerform/scores.sqlite")
        #expect(StoreLocation.legacyPath(environment: environment) == "/data/playerform/scores.jsonl")
    }

    @Test("without XDG_DATA_HOME, the database is under ~/.local/share")
    func home() {
        #expect(
            StoreLocation.databasePath(environment: ["HOME": "/home/ana"])
                == "/home/ana/.local/share/playerform/scores.sqlite")
    }

    @Test("an empty or relative XDG_DATA_HOME is ignored, as the XDG rules ask")
    func relativeXDGIgnored() {
        for value in ["", "data", "./data"] {
            #expect(
                StoreLocation.databasePath(environment: ["XDG_DATA_HOME": value, "HOME": "/home/ana"])
                    == "/home/ana/.local/share/playerform/scores.sqlite")
        }
    }

    @Test("with neither an absolute XDG_DATA_HOME nor an absolute HOME there is no default place")
    func noDefault() {
        #expect(StoreLocation.databasePath(environment: ["HOME": "relative"]) == nil)
        #expect(StoreLocation.legacyPath(environment: ["HOME": "relative"]) == nil)
    }
}
