import Foundation
import PlayerFormRules
import PropertyBased
import Testing

/// Pieces of generated names: parts of forbidden names in several cases and compatibility forms,
/// default-ignorable code points, whitespace, combining marks and other letters.
private let pieces: [String] = [
    "d", "a", "r", "n", "p", "o", "g", " ", "darn", "poop", "dag", "nabbit", "D", "A", "R", "N", "O",
    "DARN", "zo", "ë", "e\u{308}", "Ë", "é", "e\u{301}", "stra", "ß", "ẞ", "SS", "ss", "ﬁ", "ne", "fi",
    "ｄ", "ａ", "ｒ", "ｎ", "Ｄ", "ℕ", "Ⅻ", "xii", "İ", "i\u{307}", "\u{3000}", "\u{A0}", "\u{2028}", "\t",
    "\n", "\u{200B}", "\u{200C}", "\u{200D}", "\u{2060}", "\u{FEFF}", "\u{AD}", "\u{FE0F}", "\u{FE00}",
    "\u{E0100}", "\u{180E}", "\u{34F}", "\u{115F}", "\u{3164}", "\u{FFA0}", "\u{E0001}", "\u{202E}",
    "\u{61C}", "\u{1D173}", "名前", "🎲", "\u{301}", "\u{308}", "\r", "\u{B}", "\u{C}", "\u{1C}", "\u{85}",
    "\u{1F}", "Z", "@", "[",
]

private let generatedNames = Gen.element(of: pieces).map { $0 ?? "" }.array(of: 0...7).map {
    $0.joined()
}

@Suite("The name rule: forbidden names and comparison keys")
struct NameRuleTests {
    static let forbidden = [
        "darn", "poop", "dag nabbit", "zoë", "straße", "ﬁne", "名前", "xii", "d\u{200B}arn\u{FE0F}", "🎲",
    ]

    @Test("for generated names, contains agrees exactly with the comparison keys of the list")
    func containsAgreesWithComparisonKey() async {
        let names = ForbiddenNames(Self.forbidden)
        let keys = Set(Self.forbidden.map(PlayerName.comparisonKey))
        await propertyCheck(count: 3000, input: generatedNames) { name in
            #expect(
                names.contains(name) == keys.contains(PlayerName.comparisonKey(name)),
                "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("the key is the name without default-ignorables, compatibility-composed, trimmed, lowercased")
    func comparisonKeyDefinition() async {
        await propertyCheck(count: 3000, input: generatedNames) { name in
            let visible = String(
                String.UnicodeScalarView(
                    name.unicodeScalars.filter { !$0.properties.isDefaultIgnorableCodePoint }))
            // Whitespace characters (whose first scalar is White_Space) at either end.
            let composed = visible.precomposedStringWithCompatibilityMapping
            let trimmed = composed.drop(while: \.isWhitespace).reversed().drop(while: \.isWhitespace)
                .reversed()
            let expected = String(trimmed).lowercased()
            let key = PlayerName.comparisonKey(name)
            #expect(
                Array(key.unicodeScalars) == Array(expected.unicodeScalars),
                "\(name.unicodeScalars.map { String($0.value, radix: 16) })")
        }
    }

    @Test("default-ignorable code points hide no forbidden name, in the form and in the rules")
    func invisibleCharactersDoNotHide() throws {
        let rules = PlayerRules.defaults
        let disguises = [
            "d\u{200B}arn", "\u{FEFF}darn", "da\u{AD}rn", "dar\u{200D}n", "p\u{2060}oop", "darn\u{FE0F}",
            "D\u{200C}ARN", "dag\u{2060} nabbit", "\u{200B} darn \u{200B}", "da\u{E0001}rn", "ｄ\u{200B}ａｒｎ",
        ]
        for disguise in disguises {
            #expect(rules.isForbidden(disguise), "\(disguise.unicodeScalars.map(\.value))")
            #expect(
                rules.validate(name: disguise, points: 1) == [.forbiddenName(disguise)],
                "\(disguise.unicodeScalars.map(\.value))")
        }
        #expect(!rules.isForbidden("dar\u{200D}nn"))
    }

    @Test("names that differ only in default-ignorable code points are the same name")
    func ignorablesDoNotCount() {
        #expect(PlayerName.same("Colin", "Col\u{200B}in"))
        #expect(PlayerName.same("Colin", "\u{FEFF}colin\u{2060}"))
        #expect(PlayerName.same("Zoë", "Zo\u{AD}e\u{308}"))
        #expect(!PlayerName.same("Colin", "Colin2"))
        #expect(PlayerName.comparisonKey("Col\u{200B}in") == "colin")
    }

    @Test("a name of only whitespace and default-ignorable code points is empty")
    func ignorablesAloneAreEmpty() throws {
        for blank in ["\u{200B}", " \u{FEFF} ", "\u{2060}\u{AD}", "\u{3000}\u{200D}"] {
            #expect(
                PlayerRules.defaults.validate(name: blank, points: 1) == [.emptyName],
                "\(blank.unicodeScalars.map(\.value))")
        }
        #expect(throws: RulesError.blankForbiddenName(index: 1)) {
            try PlayerRules(forbiddenNames: ["darn", "\u{200B}"])
        }
    }
}

@Suite("The name rule on UTF-8 bytes")
struct NameRuleOnBytesTests {
    /// Pieces of names: ASCII letters and forbidden words in any case, whitespace, control
    /// characters, and non-ASCII scalars that are whitespace, default-ignorable or full-width.
    static let pieces = [
        "a", "Z", "k", "darn", "DaRn", "poop", "dag", " ", "\t", "\r", "\u{0}", "\u{1B}", "\u{7F}", "é", "Ü",
        "e\u{301}", "\u{301}", "ｄａｒｎ", "ｄ", "Ａ", "！", "\u{FF5E}", "\u{FF5F}", "\u{212A}", "İ", "\u{37E}",
        "\u{1680}", "\u{200B}", "\u{85}", "\u{A0}", "\u{3000}", "名", "'", "9", "\u{2028}", "😀", "\u{FEFF}",
        "   ", "0123456", "Colin", "~", "\u{1F}", " DARN ",
    ]
    static let names = Gen.element(of: pieces).map { $0! }.array(of: 0...6).map { $0.joined() }
    static let points = Gen.element(of: [0, 1, 10_000, 10_001, -1, .nan, .infinity, -Double.infinity]).map {
        $0!
    }

    @Test(
        "for random names and points, the byte path gives the String path's answer",
        arguments: [
            ["darn", "dag nabbit", "poop", "k", "a!"], ["darn", "名", "a\u{200B}9", "zoë"],
            ["colin0123456", " a z ", String(repeating: "colin", count: 13), "0123456colin0123456"],
            // More short ASCII names than are compared one by one: they are looked up by hash.
            [
                "darn", "poop", "dag nabbit", "k", "a!", "colin", "zz", "darnk", "0123456", "kk", "colink",
                "~", "a", "darn darn", "darndarnkdarn",
            ],
        ])
    func bytesAgreeWithString(forbidden: [String]) async {
        let rules = try! PlayerRules(forbiddenNames: forbidden)
        await propertyCheck(count: 3_000, input: Self.names, Self.points) { name, points in
            let expected = rules.isValid(name: name, points: points)
            let found = Array(name.utf8).withUnsafeBufferPointer { bytes in
                rules.isValid(utf8Name: bytes, points: points)
            }
            #expect(found == expected, "\(name.debugDescription) \(points)")
        }
    }

    @Test("for random names, the key made from the name's bytes is the key of the name")
    func keyFromBytes() async {
        await propertyCheck(count: 3_000, input: Self.names) { name in
            let key = Array(name.utf8).withUnsafeBufferPointer { PlayerName.comparisonKey(utf8Name: $0) }
            #expect(key == PlayerName.comparisonKey(name), "\(name.debugDescription)")
        }
    }

    @Test("for random names and points, the codes a report counts are those of validate, in its order")
    func issueCodesAgreeWithValidate() async {
        let rules = try! PlayerRules(forbiddenNames: ["darn", "名", "dag nabbit"])
        await propertyCheck(count: 3_000, input: Self.names, Self.points) { name, points in
            let expected = rules.validate(name: name, points: points).map(\.code)
            let codes = Array(name.utf8).withUnsafeBufferPointer {
                rules.issueCodes(utf8Name: $0, points: points)
            }
            #expect(
                [codes.name, codes.points].compactMap { $0 } == expected, "\(name.debugDescription) \(points)"
            )
        }
    }

    @Test("names of every length around the 8 and 16 bytes read as words agree with the rule's definition")
    func everyLengthAgrees() {
        let long = String(repeating: "colin", count: 13)
        let forbidden = ["darn", "abcdefgh", "abcdefghijklmnop", "abcdefghi", long]
        let rules = try! PlayerRules(forbiddenNames: forbidden)
        let keys = Set(forbidden.map(PlayerName.comparisonKey))
        // The rule as defined, apart from the code under test: a key that is not empty and not
        // forbidden, and no control character.
        func expected(_ name: String) -> Bool {
            let key = PlayerName.comparisonKey(name)
            let control = name.unicodeScalars.contains { $0.value < 0x20 || (0x7F...0x9F).contains($0.value) }
            return !key.isEmpty && !keys.contains(key) && !control
        }
        let alphabet = Array("abcdefghijklmnopq")
        for length in 1...18 {
            let word =
                String(alphabet[0..<Swift.min(length, alphabet.count)])
                + String(repeating: "r", count: length - Swift.min(length, alphabet.count))
            let variants = [
                word, word.uppercased(), " " + word, word + " ", String(repeating: " ", count: length),
                String(word.dropLast()) + "\u{7F}", "\u{1}" + String(word.dropFirst()),
                String(word.dropLast()) + "é",
                String(word.dropLast()) + "\t", long, " " + long.uppercased() + " ",
                String(long.dropLast()) + "x",
            ]
            for name in variants {
                let found = Array(name.utf8).withUnsafeBufferPointer {
                    rules.isValid(utf8Name: $0, points: 1)
                }
                #expect(found == expected(name), "\(name.debugDescription)")
                #expect(rules.isValid(name: name, points: 1) == expected(name), "\(name.debugDescription)")
            }
        }
    }

    /// Byte pieces of names beyond ASCII, valid UTF-8 or not: scalars that stay in a key or not,
    /// a C1 control character, a line separator, and bytes that start no scalar.
    static let bytePieces: [[UInt8]] = [
        Array("a".utf8), Array("Z".utf8), Array("darn".utf8), Array(" ".utf8), Array("é".utf8),
        Array("Ü".utf8), Array("名".utf8), Array("ｄ".utf8), Array("\u{85}".utf8), Array("\u{2028}".utf8),
        Array("\u{200B}".utf8), Array("\u{3000}".utf8), Array("\u{7F}".utf8), [0xFF], [0xC2], [0xE2, 0x80],
        [0x80], [0xC0, 0x85], [0xED, 0xA0, 0x80],
    ]

    @Test("for random bytes beyond ASCII, UTF-8 or not, the byte path answers for the name they decode to")
    func bytesBeyondASCIIAgreeWithDecodedName() async {
        let rules = PlayerRules.defaults
        let input = Gen.element(of: Self.bytePieces).map { $0! }.array(of: 1...8)
        await propertyCheck(count: 3_000, input: input) { parts in
            let bytes = parts.flatMap { $0 }
            let expected = rules.isValid(name: String(decoding: bytes, as: UTF8.self), points: 1)
            let found = bytes.withUnsafeBufferPointer { rules.isValid(utf8Name: $0, points: 1) }
            #expect(found == expected, "\(bytes)")
        }
    }
}
