/// Whether to colour output, and how.
///
/// Colour is used only on a terminal (not `TERM=dumb`), never when `NO_COLOR` is set to a non-empty value
/// (https://no-color.org) or `--no-color` is given.
public struct TerminalStyle: Sendable, Equatable {
    /// Whether escape sequences for colour are written.
    public let usesColor: Bool

    /// A style that writes plain text.
    public static let plain = TerminalStyle(usesColor: false)

    /// Creates a style.
    public init(usesColor: Bool) {
        self.usesColor = usesColor
    }

    /// The colour policy: colour only when writing to a terminal that is not `TERM=dumb`,
    /// `NO_COLOR` is unset or empty, and colour was not turned off on the command line.
    public static func choose(
        isTerminal: Bool, environment: [String: String], noColorFlag: Bool
    ) -> TerminalStyle {
        let noColor = environment["NO_COLOR"].map { !$0.isEmpty } ?? false
        let dumb = environment["TERM"] == "dumb"
        return TerminalStyle(usesColor: isTerminal && !dumb && !noColor && !noColorFlag)
    }

    /// A colour of the palette, as an SGR parameter.
    public enum Color: String, Sendable {
        case red = "31"
        case green = "32"
        case yellow = "33"
        case cyan = "36"
        case dim = "2"
        case bold = "1"
    }

    /// `text` in `color` when colour is on.
    public func paint(_ text: String, _ color: Color) -> String {
        usesColor ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }

    /// `text` without the colours ``paint(_:_:)`` adds: the escape sequences of this palette,
    /// the only ones this program writes (text from users is escaped before it is written).
    static func withoutColours(_ text: String) -> String {
        guard text.utf8.contains(0x1B) else { return text }
        var plain = ""
        var scalars = text.unicodeScalars[...]
        while let scalar = scalars.first {
            scalars = scalars.dropFirst()
            guard scalar == "\u{1B}", scalars.first == "[" else {
                plain.unicodeScalars.append(scalar)
                continue
            }
            // ESC [ digits m
            let parameters = scalars.dropFirst().prefix { ("0"..."9").contains($0) }
            let after = scalars.dropFirst(1 + parameters.count)
            if after.first == "m" {
                scalars = after.dropFirst()
            } else {
                plain.unicodeScalars.append(scalar)
            }
        }
        return plain
    }

    /// `text` in `color` for a readline prompt: the escape sequences are wrapped in \001 and \002 so
    /// that readline leaves them out when it measures the prompt's width.
    public func paintPrompt(_ text: String, _ color: Color) -> String {
        usesColor ? "\u{1}\u{1B}[\(color.rawValue)m\u{2}\(text)\u{1}\u{1B}[0m\u{2}" : text
    }
}
