/// Unicode properties that name matching asks about for every non-ASCII scalar, looked up once
/// for the whole Basic Multilingual Plane (64 KiB, built on first use) instead of per scalar.
enum ScalarFacts {
    private static let stable: UInt8 = 1
    private static let whitespace: UInt8 = 2

    private static let basicPlane: [UInt8] = (0..<0x1_0000).map { value in
        guard let scalar = Unicode.Scalar(UInt32(value)) else { return 0 }
        return computed(scalar)
    }

    private static func computed(_ scalar: Unicode.Scalar) -> UInt8 {
        let properties = scalar.properties
        var facts: UInt8 = 0
        if !properties.changesWhenNFKCCaseFolded && !properties.changesWhenLowercased { facts |= stable }
        if properties.isWhitespace { facts |= whitespace }
        return facts
    }

    private static func facts(_ scalar: Unicode.Scalar) -> UInt8 {
        scalar.value < 0x1_0000 ? basicPlane[Int(scalar.value)] : computed(scalar)
    }

    /// Whether NFKC case folding and lowercasing both leave `scalar` as it is.
    static func isStable(_ scalar: Unicode.Scalar) -> Bool { facts(scalar) & stable != 0 }

    /// Whether `scalar` has the Unicode White_Space property.
    static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.isASCII { return scalar.value == 0x20 || (0x09...0x0D).contains(scalar.value) }
        return facts(scalar) & whitespace != 0
    }
}
