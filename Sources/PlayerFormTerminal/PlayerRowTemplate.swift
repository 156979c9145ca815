import PlayerForm
import ReactiveCore
import ReactiveTable

/// Renders a roster row as "Colin 100", "Colin 40% 100" while an upload reports progress, and
/// "Colin 100 *" when the player is selected; its removal reads "Colin".
public final class PlayerRowTemplate: RowTemplate {
    private var name = ""

    /// Creates an unbound template.
    public init() {}

    public func bind(_ row: PlayerRowViewModel) -> Property<String> {
        name = row.id
        return Property.combineLatest(row.title, row.pointsText, row.isSelected).map {
            title, points, selected in
            selected ? "\(title) \(points) *" : "\(title) \(points)"
        }
    }

    public func unbind() {
        name = ""
    }

    public func removalLine(lastLine: String) -> String {
        name
    }
}
