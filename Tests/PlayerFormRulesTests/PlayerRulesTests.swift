import PlayerFormRules
import Testing

@Suite("Player rules")
struct PlayerRulesTests {
    let rules = PlayerRules.defaults

    @Test("the defaults are the sample's")
    func defaults() {
        #expect(rules.name == "Colin")
        #expect(rules.points == 100)
        #expect(rules.step == 1)
        #expect(rules.min == 0)
        #expect(rules.max == 10000)
        #expect(rules.maxPointUpdates == 10)
        #expect(rules.maxUploads == 5)
        #expect(rules.forbiddenNames.names == ["dag nabbit", "darn", "poop"])
    }

    @Test("a name and points within the rules are valid")
    func valid() {
        #expect(rules.validate(name: "Colin", points: 100).isEmpty)
        #expect(rules.validate(name: "Colin", points: 0).isEmpty)
        #expect(rules.validate(name: "Colin", points: 10000).isEmpty)
    }

    @Test(
        "an empty name is not valid, and whitespace only counts as empty",
        arguments: ["", " ", "\t\n", "\u{3000}"])
    func emptyName(name: String) {
        #expect(rules.validate(name: name, points: 100) == [.emptyName])
    }

    @Test(
        "a forbidden name is not valid, ignoring case, surrounding whitespace and compatibility forms",
        arguments: ["darn", "DARN", " darn ", "ｄａｒｎ", "Dag Nabbit", "\tpoop\n", "ＰＯＯＰ", "\u{3000}darn"])
    func forbiddenName(name: String) {
        #expect(rules.validate(name: name, points: 100) == [.forbiddenName(name)])
        #expect(rules.isForbidden(name))
    }

    @Test(
        "a name that only contains a forbidden name is allowed",
        arguments: ["darnit", "da rn", "poopy", "dagnabbit"])
    func nearMisses(name: String) {
        #expect(rules.validate(name: name, points: 100).isEmpty)
    }

    @Test("points below the minimum are not valid")
    func belowMin() {
        #expect(rules.validate(name: "Colin", points: -1) == [.belowMin(points: -1, min: 0)])
    }

    @Test("points above the maximum are not valid")
    func aboveMax() {
        #expect(rules.validate(name: "Colin", points: 10001) == [.aboveMax(points: 10001, max: 10000)])
    }

    @Test("points that are not finite are not valid", arguments: [Double.nan, .infinity, -.infinity])
    func notFinite(points: Double) {
        #expect(rules.validate(name: "Colin", points: points) == [.notFinite])
    }

    @Test("every reason is reported, name first")
    func everyReason() {
        #expect(rules.validate(name: " ", points: -5) == [.emptyName, .belowMin(points: -5, min: 0)])
    }

    @Test("refusals say 1 time and 1 upload in the singular")
    func refusalCounts() {
        #expect(PlayerRefusal.noPointUpdatesLeft(limit: 1).description.hasSuffix("changed 1 time."))
        #expect(PlayerRefusal.noPointUpdatesLeft(limit: 2).description.hasSuffix("changed 2 times."))
        #expect(PlayerRefusal.locked(uploads: 1).description == "The form is locked after 1 upload.")
        #expect(PlayerRefusal.locked(uploads: 5).description == "The form is locked after 5 uploads.")
    }

    @Test("reasons have stable codes and messages for users")
    func messages() {
        #expect(ValidationIssue.emptyName.code.rawValue == "emptyName")
        #expect(ValidationIssue.emptyName.message == "The name is empty.")
        #expect(ValidationIssue.forbiddenName("darn").message == "The name darn has been forbidden.")
        #expect(
            ValidationIssue.belowMin(points: -1, min: 0).message == "Points -1 are below the minimum of 0.")
        #expect(
            ValidationIssue.aboveMax(points: 10000.5, max: 10000).message
                == "Points 10000.5 are above the maximum of 10000.")
        #expect(ValidationIssue.notFinite.message == "Points must be a finite number.")
        #expect(
            ValidationIssue.controlCharacters("\n\t").message
                == "The name contains control characters (\n\t): a name is one line of visible text.")
        #expect(
            ValidationIssue.Code.allCases.map(\.rawValue) == [
                "emptyName", "controlCharacters", "forbiddenName", "belowMin", "aboveMax", "notFinite",
            ])
    }

    @Test("rules check that min is not above max")
    func minAboveMax() {
        #expect(throws: RulesError.minAboveMax(min: 5, max: 1)) { try PlayerRules(min: 5, max: 1) }
    }

    @Test("rules check that the step is greater than zero", arguments: [0.0, -1])
    func stepPositive(step: Double) {
        #expect(throws: RulesError.stepNotPositive(step)) { try PlayerRules(step: step) }
    }

    @Test("rules check that numbers are finite")
    func finiteNumbers() {
        #expect(throws: RulesError.notFinite(key: "max")) { try PlayerRules(max: .infinity) }
        #expect(throws: RulesError.notFinite(key: "step")) { try PlayerRules(step: .nan) }
        #expect(throws: RulesError.notFinite(key: "points")) { try PlayerRules(points: .nan) }
    }

    @Test("rules check that limits are not negative")
    func nonNegativeLimits() {
        #expect(throws: RulesError.negativeLimit(key: "maxPointUpdates", value: -1)) {
            try PlayerRules(maxPointUpdates: -1)
        }
        #expect(throws: RulesError.negativeLimit(key: "maxUploads", value: -2)) {
            try PlayerRules(maxUploads: -2)
        }
    }

    @Test("rules refuse a forbidden name with no visible character")
    func blankForbiddenName() {
        #expect(throws: RulesError.blankForbiddenName(index: 1)) {
            try PlayerRules(forbiddenNames: ["darn", "  "])
        }
    }

    @Test("changing the stepper's configuration checks consistency again")
    func withChecks() throws {
        #expect(try rules.with(max: 50).max == 50)
        #expect(throws: RulesError.minAboveMax(min: 0, max: -1)) { try rules.with(max: -1) }
    }
}
