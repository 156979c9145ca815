import PlayerForm
import PlayerFormRules
import PlayerFormScores

extension REPLSession {
    /// The form and the roster of a session, both on `store`; the form's uploads take `delay`.
    ///
    /// The roster's new players follow the form's rules as they change (`max 50`, then `add`).
    public static func viewModels(
        rules: PlayerRules, store: any ScoreStore, uploadDelay delay: Duration
    ) -> (form: PlayerViewModel, roster: RosterViewModel) {
        let form = PlayerViewModel(rules: rules, store: store, uploadDelay: delay)
        return (form, RosterViewModel(store: store, rules: form.rules))
    }
}
