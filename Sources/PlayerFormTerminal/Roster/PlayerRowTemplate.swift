import PlayerForm
import ReactiveCore
import ReactiveTable

/// Renders a roster row as "Colin 100", "Colin 40% 100" while an upload reports progress, and
/// "Colin 100 *" when the player is selected; its removal reads "Colin".
public final class PlayerRowTemplate: RowTemplate {
    private var name = ""

    /// Creates an unbound template.
    public init() {}

    /// Binds the template to `row`: its line follows the row's `line`, one
    /// change at a time.
    public func bind(_ row: PlayerRowViewModel) -> Property<String> {
        name = row.id
        return row.line.map { line in
            line.isSelected ? "\(line.title) \(line.points) *" : "\(line.title) \(line.points)"
        }
    }

    /// Forgets the row the template showed.
    public func unbind() {
        name = ""
    }

    /// The line of a removed row: the player's name alone.
    public func removalLine(lastLine: String) -> String {
        name
    }
}
