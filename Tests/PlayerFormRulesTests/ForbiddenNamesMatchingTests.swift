import PlayerFormRules
import Testing

@Suite("Forbidden names: matching non-ASCII names")
struct ForbiddenNamesMatchingTests {
    static let forbidden = ["darn", "zoë", "名前", "ǆemal", "straße"]
    static let candidates = [
        "Zoë", "ZOË", " zoë ", "zoe\u{308}", "ZOE\u{308}", "\u{ff5a}\u{ff4f}ë", "Zoë5", "名前", " 名前\u{3000}",
        "名前9", "ǅemal", "Ǆemal", "dž" + "emal", "STRASSE", "Straße", "ｄａｒｎ", "DARN\u{a0}", "Ünïcödé",
        "Ana María", "ᏃᎧᎺ", "ꮓꮧꮺ", "Ⅻ", "\u{2126}",
    ]

    @Test("a non-ASCII name is forbidden exactly when its normalized form is on the list")
    func agreesWithNormalization() {
        let names = ForbiddenNames(Self.forbidden)
        let normalizedList = Set(Self.forbidden.map(ForbiddenNames.normalize))
        for candidate in Self.candidates {
            let expected = normalizedList.contains(ForbiddenNames.normalize(candidate))
            #expect(names.contains(candidate) == expected, "\(candidate)")
        }
    }

    @Test("case, decomposed accents, surrounding spaces and full-width forms still match")
    func disguisesMatch() {
        let names = ForbiddenNames(Self.forbidden)
        for disguise in ["ZOË", "zoe\u{308}", " zoë ", "\u{ff5a}\u{ff4f}ë", " 名前\u{3000}", "Ǆemal"] {
            #expect(names.contains(disguise), "\(disguise)")
        }
        for other in ["Zoë5", "名前9", "Ana María", "Ünïcödé"] {
            #expect(!names.contains(other), "\(other)")
        }
    }
}

@Suite("Player rules: blank names")
struct BlankNameTests {
    @Test("a name of only whitespace, ASCII or not, is empty; any visible character makes it a name")
    func blankNames() {
        let rules = PlayerRules.defaults
        for blank in ["", " ", "\t\n", "\u{3000}", "\u{a0} ", " \u{301}", "\u{2028}"] {
            #expect(
                rules.validate(name: blank, points: 1) == [.emptyName], "\(blank.unicodeScalars.map(\.value))"
            )
        }
        for name in ["a", " a", "\u{3000}名", "é", "\u{301}", "Zoë"] {
            #expect(rules.validate(name: name, points: 1) == [], "\(name.unicodeScalars.map(\.value))")
        }
    }
}

@Suite("Player rules: validity without the list")
struct IsValidTests {
    @Test("isValid is true exactly when validate finds no issue")
    func agreesWithValidate() throws {
        let rules = try PlayerRules(max: 500, forbiddenNames: ["darn", "zoë"])
        let names = ["Colin", "", "  ", "DARN", " Zoë ", "ｄａｒｎ", "名前", "\u{3000}"]
        let points: [Double] = [0, -1, 500, 501, .nan, .infinity, -.infinity, 250.5]
        for name in names {
            for value in points {
                #expect(
                    rules.isValid(name: name, points: value)
                        == rules.validate(name: name, points: value).isEmpty,
                    "\(name) \(value)")
            }
        }
    }
}
