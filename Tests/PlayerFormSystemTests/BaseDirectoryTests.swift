import PlayerFormSystem
import Testing

@Suite("XDG base directories")
struct BaseDirectoryTests {
    @Test("an absolute XDG value is used, without trailing slashes", arguments: BaseDirectory.allCases)
    func absolute(kind: BaseDirectory) {
        #expect(BaseDirectory.folder(kind, environment: [kind.variable: "/x/y", "HOME": "/h"]) == "/x/y")
        #expect(BaseDirectory.folder(kind, environment: [kind.variable: "/x/y//", "HOME": "/h"]) == "/x/y")
        #expect(BaseDirectory.folder(kind, environment: [kind.variable: "/", "HOME": "/h"]) == "")
    }

    @Test(
        "an empty or relative XDG value is ignored for the folder under HOME",
        arguments: BaseDirectory.allCases)
    func ignored(kind: BaseDirectory) {
        let fallback = "/home/ana/" + kind.fallback
        #expect(
            BaseDirectory.folder(kind, environment: [kind.variable: "", "HOME": "/home/ana"]) == fallback)
        #expect(
            BaseDirectory.folder(kind, environment: [kind.variable: "rel", "HOME": "/home/ana/"]) == fallback)
        #expect(BaseDirectory.folder(kind, environment: ["HOME": "/home/ana"]) == fallback)
    }

    @Test("no folder when neither the XDG value nor HOME is absolute", arguments: BaseDirectory.allCases)
    func none(kind: BaseDirectory) {
        #expect(BaseDirectory.folder(kind, environment: [:]) == nil)
        #expect(BaseDirectory.folder(kind, environment: [kind.variable: "rel", "HOME": "home"]) == nil)
        #expect(BaseDirectory.folder(kind, environment: ["HOME": ""]) == nil)
    }

    @Test("data is XDG_DATA_HOME or .local/share; state is XDG_STATE_HOME or .local/state")
    func kinds() {
        #expect(BaseDirectory.folder(.data, environment: ["HOME": "/h"]) == "/h/.local/share")
        #expect(BaseDirectory.folder(.state, environment: ["HOME": "/h"]) == "/h/.local/state")
        #expect(
            BaseDirectory.folder(.data, environment: ["XDG_STATE_HOME": "/s", "HOME": "/h"])
                == "/h/.local/share")
        #expect(
            BaseDirectory.folder(.state, environment: ["XDG_DATA_HOME": "/d", "HOME": "/h"])
                == "/h/.local/state")
    }
}
