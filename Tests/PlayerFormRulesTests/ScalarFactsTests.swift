import Testing

@testable import PlayerFormRules

@Suite("Scalar facts: the table of the Basic Multilingual Plane")
struct ScalarFactsTests {
    @Test("the table agrees with the standard library for every scalar of the plane")
    func tableMatchesStandardLibrary() {
        var disagreements = 0
        var first: String?
        for value in UInt32(0)..<0x1_0000 {
            guard let scalar = Unicode.Scalar(value) else { continue }
            if ScalarFacts.tabled(value) != ScalarFacts.computed(scalar) {
                disagreements += 1
                first = first ?? "U+" + String(value, radix: 16, uppercase: true)
            }
        }
        #expect(
            disagreements == 0,
            "run Scripts/generate-scalar-facts.swift again; the first of them is \(first ?? "none")")
    }

    @Test("whitespace, stability and default-ignorables are read for scalars of the plane and beyond it")
    func answersForKnownScalars() {
        #expect(ScalarFacts.isWhitespace("\u{3000}"))
        #expect(ScalarFacts.isWhitespace("\u{A0}"))
        #expect(!ScalarFacts.isWhitespace("名"))
        #expect(ScalarFacts.isStable("名"))
        #expect(!ScalarFacts.isStable("Ä"))
        #expect(!ScalarFacts.isStable("\u{FF41}"))
        #expect(!ScalarFacts.isStable("\u{1D400}"))
        #expect(ScalarFacts.isStable("\u{1F600}"))
        #expect(ScalarFacts.isDefaultIgnorable("\u{200B}"))
        #expect(ScalarFacts.isDefaultIgnorable("\u{E0001}"))
        #expect(!ScalarFacts.isDefaultIgnorable("a"))
        #expect(!ScalarFacts.isDefaultIgnorable("名"))
    }
}
