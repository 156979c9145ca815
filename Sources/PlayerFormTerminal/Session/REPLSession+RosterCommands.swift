import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormText
import ReactiveCore
import ReactiveTable
import Synchronization

extension REPLSession {
    // MARK: Roster

    /// Runs a roster command: fails when the session has no roster; otherwise first shows what
    /// others changed, so that the command works on the roster as it is, and fails the command
    /// when the store raised an alert meanwhile (a store failure, a damaged line).
    func onRoster(_ command: (RosterView) async -> StepResult) async -> StepResult {
        guard let rosterView else {
            log.error("This session has no roster.")
            return .failed
        }
        await catchUp()
        _ = rosterView.takeAlerts()
        let result = await command(rosterView)
        log.flushState()
        return rosterView.takeAlerts() ? .failed : result
    }

    /// `players`, `players N`, `players --page N`, `--all`, `--json`, `--csv`.
    ///
    /// A listing of every player stops before its next page at Ctrl-C, with a note saying how far
    /// it got, and silently once its output is dropped (the pager was quit).
    func showPlayers(_ request: PlayersRequest, in view: RosterView) async -> StepResult {
        let stop = StopRequest()
        do {
            if let pageSizeNow { try await view.follow(pageSize: pageSizeNow()) }
            let stoppedAfter: Int?
            switch request {
            case .currentPage:
                for line in view.pageLines(mode: mode, headers: headers) { output.write(line) }
                return .succeeded
            case .page(let page):
                try await view.show(page: page)
                for line in view.pageLines(mode: mode, headers: headers) { output.write(line) }
                return .succeeded
            case .all, .json, .csv:
                interrupts?.whileRunning { stop.request() }
                defer { interrupts?.whileRunning(nil) }
                // A command's own flag wins; --all is written in the session's mode (line mode
                // lists every row as the table does).
                let written: PlayersRequest =
                    request != .all ? request : mode == .json ? .json : mode == .csv ? .csv : .all
                stoppedAfter =
                    switch written {
                    case .json: try await view.writeJSON(until: stop.isRequested)
                    case .csv: try await view.writeCSV(until: stop.isRequested, header: headers)
                    case _ where mode == .unaligned:
                        try await view.writeCSV(until: stop.isRequested, header: headers, unaligned: true)
                    default: try await view.writeAll(until: stop.isRequested, headers: headers)
                    }
            }
            guard let stoppedAfter, stop.isRequested() else { return .succeeded }
            let total = (try? await view.roster.playerCountNow()) ?? view.roster.playerCount.value
            let note =
                "Ctrl-C stopped the listing after \(RosterView.grouped(stoppedAfter)) of "
                + "\(RosterView.grouped(total)) \(total == 1 ? "player" : "players")."
            if paging?.noteAfterPager(note) != true { output.writeError("note: " + note) }
            return .failed
        } catch let error as PageError {
            log.error(error.description)
            return .failed
        } catch let error as ActionError {
            return reportActionError(error)
        } catch {
            reportLookupError(error)
            return .failed
        }
    }

    /// Asked for by Ctrl-C while a listing runs: the listing stops before its next page.
    private final class StopRequest: Sendable {
        private let requested = Atomic<Bool>(false)

        func request() { requested.store(true, ordering: .relaxed) }

        func isRequested() -> Bool { requested.load(ordering: .relaxed) }
    }

    /// `add NAME POINTS`.
    func add(name: String, points: Double, to view: RosterView) async -> StepResult {
        let roster = view.roster
        roster.newNameEdited(name)
        roster.newPointsEdited(points)
        let issues = roster.inputIssues.value
        guard issues.isEmpty else {
            log.error(TerminalText.escaped(issues.map(\.message).joined(separator: " ")))
            return .failed
        }
        // A player out of view has no row to say what changed: the count line says a new one was
        // added, as after an upload (the roster was caught up before this command), and a line of
        // its own says an existing one has new points.
        let before = roster.playerCount.value
        let output = self.output
        return await report { () async throws(ActionError) in
            let record = try await roster.addTapped()
            let after = roster.playerCount.value
            let key = PlayerName.comparisonKey(record.name)
            let inView = roster.players.value.contains { $0.key == key }
            guard !inView else { return }
            if after > before {
                output.write(RosterView.countLine(count: after, changedOutOfView: after - before))
            } else {
                output.write(
                    "updated out of view: " + TerminalText.escaped(record.name) + " "
                        + PointsFormat.text(record.points))
            }
        }
    }

    /// What a running `watch` waits for.
    private enum WatchEvent: Sendable {
        /// The store may have changed: a tick of ``idleTicks``.
        case tick
        /// The least time between two drawings has passed since the last.
        case due
        /// Ctrl-C.
        case stop
    }

    /// `watch [players] [SECONDS [COUNT]]` (`\watch`): the page drawn under a line with the time,
    /// then drawn again each time it changes (by this session or any other sharing the store), at
    /// most every SECONDS, until Ctrl-C, COUNT drawings, or the end of the program by a signal.
    ///
    /// A change is seen at a tick of ``idleTicks`` (a second, or a league's announcement); one
    /// that comes sooner than SECONDS after the last drawing is drawn once SECONDS have passed,
    /// with whatever else changed meanwhile.
    func watch(_ request: WatchRequest, in view: RosterView) async -> StepResult {
        guard let idleTicks else {
            log.error("This session does not follow the store's changes, so watch cannot show them.")
            return .failed
        }
        guard request.count != nil || reader.isInteractive else {
            log.error(
                "A script cannot press Ctrl-C to end watch; give a count of drawings, such as watch 1 5.")
            return .failed
        }
        let (events, continuation) = AsyncStream<WatchEvent>.makeStream()
        let ticks = idleTicks()
        let forwarding = Task {
            for await _ in ticks { continuation.yield(.tick) }
        }
        interrupts?.whileRunning { continuation.yield(.stop) }
        var timer: Task<Void, Never>?
        defer {
            interrupts?.whileRunning(nil)
            forwarding.cancel()
            timer?.cancel()
            continuation.finish()
        }
        let interval = UInt64(request.seconds * 1_000_000_000)
        let every = "(every \(PointsFormat.text(request.seconds))s)"
        var drawn = 0
        var lastDrawn: UInt64 = 0
        var pending = false
        func draw() async {
            if let pageSizeNow { try? await view.follow(pageSize: pageSizeNow()) }
            if mode == .table && headers { output.write(PlayerTable.time(now()) + " UTC " + every) }
            for line in view.pageLines(mode: mode, headers: headers) { output.write(line) }
            output.flush()
            drawn += 1
            lastDrawn = nanoseconds()
            pending = false
        }
        await draw()
        if drawn == request.count { return .succeeded }
        for await event in events {
            if endRequested?() == true { break }
            switch event {
            case .stop:
                return .succeeded
            case .tick:
                let found = await view.catchUp()
                for note in found.notes { output.writeError(note) }
                pending = pending || !found.lines.isEmpty || !found.notes.isEmpty
                guard pending, timer == nil else { continue }
                let elapsed = nanoseconds() &- lastDrawn
                if elapsed >= interval {
                    await draw()
                } else {
                    let sleep = self.sleep
                    let wait = Duration.nanoseconds(Int64(interval - elapsed))
                    timer = Task {
                        guard (try? await sleep(wait)) != nil else { return }
                        continuation.yield(.due)
                    }
                }
            case .due:
                timer = nil
                // What changed while the drawing waited is drawn with it.
                let found = await view.catchUp()
                for note in found.notes { output.writeError(note) }
                await draw()
            }
            if drawn == request.count { break }
        }
        return .succeeded
    }

    /// `find TEXT`: the players whose names start with TEXT, in the order of their names, at
    /// most a page of them; in table mode with a title that says how many, and when there are
    /// more than a page, to type more of the name.
    func findPlayers(_ text: String, in view: RosterView) async -> StepResult {
        let limit = view.pageSize
        let found: [(index: Int, player: Player)]
        do {
            // One more than shown: whether there are more is known without counting them.
            found = try await view.roster.players(startingWith: text, limit: limit + 1)
        } catch {
            reportLookupError(error)
            return .failed
        }
        let rows = found.prefix(limit).map { found in
            RosterView.Listed(
                number: found.index + 1, player: found.player,
                selected: view.roster.isSelected(found.player.name))
        }
        if mode == .table && headers {
            let start = TerminalText.quoted(text)
            output.write(
                rows.isEmpty
                    ? "No player's name starts with \(start)."
                    : found.count > limit
                        ? "Players whose names start with \(start): the first \(RosterView.grouped(limit)) by name;"
                            + " type more of the name for the others"
                        : "Players whose names start with \(start): \(RosterView.grouped(rows.count))")
        }
        for line in RosterView.lines(of: rows, mode: mode, headers: headers, maxWidth: view.fitWidth?()) {
            output.write(line)
        }
        // Without the title, the rows left out are said where errors go, so the rows stay data.
        if found.count > limit, !(mode == .table && headers) {
            output.writeError(
                "note: find wrote the first \(RosterView.grouped(limit)) by name; type more of the name for the"
                    + " others")
        }
        return .succeeded
    }

    /// `select N`.
    func select(_ choice: PlayerChoice, in view: RosterView) async -> StepResult {
        let roster = view.roster
        guard let (row, name) = await find(choice, in: view) else { return .failed }
        let inView = view.isInView(row: row)
        let output = self.output
        return await report { () async throws(ActionError) in
            let selected = try await roster.toggleSelection.apply(name)
            // A row in view says so in its change line; another needs a line of its own.
            if !inView {
                output.write(
                    "\(selected ? "selected" : "deselected") row \(RosterView.grouped(row)): "
                        + TerminalText.escaped(name))
            }
        }
    }

    /// `delete N`, `delete N --yes`.
    func delete(_ choice: PlayerChoice, confirmed: Bool, in view: RosterView) async -> StepResult {
        let roster = view.roster
        guard let (row, name) = await find(choice, in: view) else { return .failed }
        if !confirmed {
            guard reader.isInteractive else {
                let typed: String
                switch choice {
                case .row(let row): typed = String(row)
                case .name(let name): typed = TerminalText.quoted(name)
                }
                log.error(
                    "delete asks before deleting, and a script cannot answer; type delete \(typed) --yes.")
                return .failed
            }
            let answer = await reader.answer(prompt: "Delete \(TerminalText.escaped(name))? [y/N] ")
            guard case .line(let bytes) = answer,
                ["y", "yes"].contains(
                    CommandParser.trimmed(String(decoding: bytes, as: UTF8.self)).lowercased())
            else {
                output.write("not deleted")
                return .succeeded
            }
        }
        let inView = view.isInView(row: row)
        let output = self.output
        return await report { () async throws(ActionError) in
            _ = try await roster.delete.apply(name)
            if !inView {
                output.write("deleted row \(RosterView.grouped(row)): " + TerminalText.escaped(name))
            }
        }
    }

    /// `refresh`.
    func refresh(_ view: RosterView) async -> StepResult {
        let roster = view.roster
        let result = await report { () async throws(ActionError) in _ = try await roster.refresh.apply(()) }
        // What changed was written as it changed (here, or just before the command); the count
        // read last ends the answer, so that a reading that changed nothing is not answered by
        // silence.
        if result == .succeeded {
            let count = roster.playerCount.value
            output.write("Up to date: \(RosterView.grouped(count)) \(count == 1 ? "player" : "players").")
        }
        return result
    }

    /// Runs a roster action; its failures were written as alerts, so only a refusal is written.
    ///
    /// Ctrl-C cancels it meanwhile, also while the store waits for a lock another process holds.
    private func report<Output>(_ action: () async throws(ActionError) -> Output) async -> StepResult {
        if let roster = rosterView?.roster {
            interrupts?.whileRunning {
                roster.addPlayer.cancel()
                roster.delete.cancel()
                roster.refresh.cancel()
            }
        }
        defer { interrupts?.whileRunning(nil) }
        do {
            _ = try await action()
            return .succeeded
        } catch {
            return reportActionError(error)
        }
    }

    /// The row and the name of the player `choice` means, or nil after saying why there is none.
    ///
    /// A name is looked up by its key, whatever the roster's size; the name kept in the store is
    /// the one used from then on.
    private func find(_ choice: PlayerChoice, in view: RosterView) async -> (row: Int, name: String)? {
        do {
            switch choice {
            case .row(let row):
                return (row, try await view.name(inRow: row))
            case .name(let name):
                guard let found = try await view.roster.player(named: name) else {
                    await reportNoSuchName(name, in: view)
                    return nil
                }
                return (found.index + 1, found.player.name)
            }
        } catch {
            reportLookupError(error)
            return nil
        }
    }

    /// Says that no player is named `name`, naming the players whose names start with it, when
    /// there are any, as `find` would list them.
    private func reportNoSuchName(_ name: String, in view: RosterView) async {
        let shown = 5
        let candidates = (try? await view.roster.players(startingWith: name, limit: shown + 1)) ?? []
        guard !candidates.isEmpty else {
            // A name copied as the table shows it holds escapes, which only double quotes read.
            let escapes =
                name.contains("\\")
                ? " A name the table shows with escapes such as \\u{200B} is typed in double quotes."
                : ""
            log.error(
                "No player is named \(TerminalText.quoted(name)); players lists them (a name that"
                    + " is a number is typed in quotes)." + escapes)
            return
        }
        let listed = candidates.prefix(shown).map { found in
            TerminalText.quoted(found.player.name) + " (row \(RosterView.grouped(found.index + 1)))"
        }
        let more = candidates.count > shown ? ", and more (find \(TerminalText.quoted(name)) lists them)" : ""
        log.error(
            "No player is named \(TerminalText.quoted(name)); names that start with it: "
                + listed.joined(separator: ", ") + more + ".")
    }

    /// A row number that names no player, or a store that cannot say.
    private func reportLookupError(_ error: any Error) {
        switch error {
        case let error as TableBindingError:
            log.error(Self.sentence(error.description))
        case let error as ScoreStoreError:
            log.error(TerminalText.escaped(TerminalWords.text(RosterAlert.readFailed(error))))
        default:
            log.error(TerminalText.escaped("Could not read the scores: \(error)"))
        }
    }

    private func reportActionError(_ error: any Error) -> StepResult {
        switch error {
        case ActionError.disabled:
            log.error("The roster is busy with another change; try again.")
        case ActionError.cancelled, ActionError.failed(is CancellationError):
            // The roster raises no alert for a cancelled change.
            log.error("The change was cancelled.")
        case ActionError.failed:
            // The roster's alert has said what went wrong.
            break
        default:
            log.error(TerminalText.escaped("\(error)"))
        }
        return .failed
    }

    /// `text` as a sentence: a capital first letter and a full stop.
    private static func sentence(_ text: String) -> String {
        text.prefix(1).uppercased() + text.dropFirst() + (text.hasSuffix(".") ? "" : ".")
    }
}
