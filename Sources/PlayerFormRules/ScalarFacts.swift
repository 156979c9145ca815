/// Unicode properties that name matching asks about for every non-ASCII scalar, read from a table
/// of the Basic Multilingual Plane that is part of the program (`ScalarFacts+Table.swift`, made by
/// `Scripts/generate-scalar-facts.swift`) instead of being looked up per scalar or built at start-up.
///
/// Scalars beyond the plane are looked up in the standard library each time.
enum ScalarFacts {
    private static let stable: UInt8 = 1
    private static let whitespace: UInt8 = 2
    private static let ignorable: UInt8 = 4
    private static let scalarsPerRun = 128
    private static let bitsPerScalar = 4

    /// The facts as the standard library gives them: what the table holds for the plane.
    static func computed(_ scalar: Unicode.Scalar) -> UInt8 {
        let properties = scalar.properties
        var facts: UInt8 = 0
        if !properties.changesWhenNFKCCaseFolded && !properties.changesWhenLowercased { facts |= stable }
        if properties.isWhitespace { facts |= whitespace }
        if properties.isDefaultIgnorableCodePoint { facts |= ignorable }
        return facts
    }

    /// The facts of a scalar of the plane as the table holds them.
    static func tabled(_ value: UInt32) -> UInt8 {
        let block = Int(blockOfRun[Int(value) / scalarsPerRun])
        let bit = Int(value) % scalarsPerRun * bitsPerScalar
        let word = blockWords[block * (scalarsPerRun * bitsPerScalar / 64) + bit / 64]
        return UInt8(truncatingIfNeeded: word >> UInt64(bit % 64)) & 0xF
    }

    private static func facts(_ scalar: Unicode.Scalar) -> UInt8 {
        scalar.value < 0x1_0000 ? tabled(scalar.value) : computed(scalar)
    }

    /// Whether NFKC case folding and lowercasing both leave `scalar` as it is.
    static func isStable(_ scalar: Unicode.Scalar) -> Bool { facts(scalar) & stable != 0 }

    /// Whether `scalar` has the Unicode Default_Ignorable_Code_Point property.
    static func isDefaultIgnorable(_ scalar: Unicode.Scalar) -> Bool {
        !scalar.isASCII && facts(scalar) & ignorable != 0
    }

    /// Whether `scalar` has the Unicode White_Space property.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return facts(scalar) & whitespace != 0
    }
}
