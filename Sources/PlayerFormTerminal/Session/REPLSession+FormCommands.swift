import PlayerForm
import PlayerFormRules
import PlayerFormScores
import PlayerFormSystem
import PlayerFormText
import ReactiveCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension REPLSession {
    // MARK: Commands (the handlers that the entries of CommandCatalog name)

    /// `name`: shows the name; `name TEXT` sets it.
    func editName(_ text: String?) -> StepResult {
        guard let text else {
            output.write(renderer.nameLine(form.name.value))
            return settled()
        }
        return edit { () throws(PlayerRefusal) in try form.nameEdited(text) }
    }

    /// `up N`.
    func pressUp(times: Int) -> StepResult {
        do throws(PlayerRefusal) {
            return finishPresses(try form.stepUpTapped(times: times), command: "up")
        } catch {
            return refused(error)
        }
    }

    /// `down N`.
    func pressDown(times: Int) -> StepResult {
        do throws(PlayerRefusal) {
            return finishPresses(try form.stepDownTapped(times: times), command: "down")
        } catch {
            return refused(error)
        }
    }

    /// `points`: shows the points; `points N` sets the stepper.
    func setPoints(_ value: Double?) -> StepResult {
        guard let value else {
            output.write(renderer.pointsLine(form.pointsText.value))
            return settled()
        }
        do throws(PlayerRefusal) {
            return finish(try form.stepperSet(to: value))
        } catch {
            return refused(error)
        }
    }

    /// `step N`.
    func changeStep(to value: Double) -> StepResult {
        edit { () throws(PlayerRefusal) in try form.stepChanged(to: value) }
    }

    /// `min N`.
    func changeMin(to value: Double) -> StepResult {
        edit { () throws(PlayerRefusal) in try form.minChanged(to: value) }
    }

    /// `max N`.
    func changeMax(to value: Double) -> StepResult {
        edit { () throws(PlayerRefusal) in try form.maxChanged(to: value) }
    }

    /// `reset`.
    func reset() -> StepResult {
        edit { () throws(PlayerRefusal) in try form.resetTapped() }
    }

    /// `show`, `show --json`.
    func show(json: Bool) -> StepResult {
        if json || mode == .json {
            output.write(renderer.json(of: form))
        } else {
            for line in renderer.screen(of: form) { output.write(line) }
        }
        return settled()
    }

    /// `help`, `help COMMAND`.
    func help(_ topic: String?) -> StepResult {
        if let topic {
            if let entry = CommandCatalog.entry(named: topic) {
                let rules = RulesInForce(form: form, origin: rulesOrigin)
                for line in renderer.help(for: entry, rules: rules, width: columns()) { output.write(line) }
            }
        } else {
            for line in renderer.help(width: columns()) { output.write(line) }
        }
        return settled()
    }

    /// `rules`, `rules --json`.
    func showRules(json: Bool) -> StepResult {
        let rules = RulesInForce(form: form, origin: rulesOrigin)
        if json || mode == .json {
            output.write(rules.json)
        } else {
            for line in rules.lines { output.write(line) }
        }
        return settled()
    }

    /// `pager on`, `pager off`, and `pager` alone, each of which says which it is now.
    ///
    /// As psql's `\pset pager` does: a command that changes a setting says so.
    func setPager(_ on: Bool?) -> StepResult {
        if let on { pagerOff = !on }
        output.write("pager: " + (paging == nil ? "not used here" : pagerOff ? "off" : "on"))
        return settled()
    }

    /// `output FILE`, `once FILE`: results to FILE; `output` alone: back to where they went.
    ///
    /// A file the program must not empty (the score database, a script being read) is refused,
    /// as `-o` refuses it.
    func sendResults(to typed: String?, once: Bool) -> StepResult {
        // sqlite3's names of standard output, as output alone.
        guard let typed, typed != "stdout", typed != "-" else {
            redirect.restore()
            return settled()
        }
        // ~ is the home folder, as a shell and psql read it.
        var path = typed
        if typed == "~" || typed.hasPrefix("~/"), let home = getenv("HOME").map({ String(cString: $0) }) {
            path = home + typed.dropFirst()
        }
        if let refusal = resultsFileRefusal?(path) {
            log.error(TerminalText.escaped(refusal))
            return .failed
        }
        // A file being read now (a sourced file, the start-up file) would be emptied under it.
        if let reading = filesBeingRead.first(where: { FileIdentity.same(path, $0) }) {
            log.error(
                "\(TerminalText.quoted(path)) is being read (\(TerminalText.escaped(reading))); name another file"
                    + " for the results.")
            return .failed
        }
        if let reason = redirect.redirect(to: path, onceAt: once ? sourceDepth : nil) {
            log.error("Cannot write the results to \(TerminalText.quoted(path)): \(reason).")
            return .failed
        }
        return settled()
    }

    /// `mode MODE`, and `mode` alone, which says which it is.
    func setMode(_ mode: OutputMode?) -> StepResult {
        if let mode { self.mode = mode }
        output.write("mode: " + self.mode.rawValue)
        return settled()
    }

    /// `headers on`, `headers off`, and `headers` alone, each of which says which it is now.
    func setHeaders(_ on: Bool?) -> StepResult {
        if let on { headers = on }
        output.write("headers: " + (headers ? "on" : "off"))
        return settled()
    }

    /// `expanded on|off` (`\x`): psql's expanded display, which is line mode.
    ///
    /// `on` is line mode, `off` the mode before it (the table when there was none); alone, the
    /// other of the two. Says which, in psql's words.
    func setExpanded(_ on: Bool?) -> StepResult {
        if on ?? (mode != .line) {
            if mode != .line { modeBeforeExpanded = mode }
            mode = .line
        } else if mode == .line {
            mode = modeBeforeExpanded
        }
        output.write(mode == .line ? "Expanded display is on." : "Expanded display is off.")
        return settled()
    }

    /// `tuples on|off` (`\t`): psql's tuples only, which is `headers off`.
    ///
    /// `on` writes the rows alone, `off` with the headers; alone, the other way. Says which, in
    /// psql's words.
    func setTuplesOnly(_ on: Bool?) -> StepResult {
        headers = !(on ?? headers)
        output.write(headers ? "Tuples only is off." : "Tuples only is on.")
        return settled()
    }

    /// `timing on`, `timing off`, and `timing` alone, which turns it the other way.
    ///
    /// As psql's `\timing` does; says which it is now, in psql's words.
    func setTiming(_ on: Bool?) -> StepResult {
        timing = on ?? !timing
        output.write(timing ? "Timing is on." : "Timing is off.")
        return settled()
    }

    /// Writes how long a command took, `elapsed` nanoseconds, as psql does (`Time: 1.234 ms`,
    /// with minutes and seconds from a second on): at a terminal after the command's output, in a
    /// script on standard error, so that what the script writes stays as it was.
    func writeTime(_ elapsed: UInt64, atTerminal: Bool) {
        timesWritten += 1
        let milliseconds = Double(elapsed) / 1_000_000
        var line = "Time: " + Self.threeDecimals(milliseconds) + " ms"
        if milliseconds >= 1_000 {
            let wholeMilliseconds = Int(milliseconds.rounded())
            let minutes = wholeMilliseconds / 60_000
            let seconds = Double(wholeMilliseconds % 60_000) / 1_000
            let secondsText = Self.threeDecimals(seconds)
            line +=
                " (" + (minutes < 10 ? "0" : "") + String(minutes) + ":"
                + (seconds < 10 ? "0" : "") + secondsText + ")"
        }
        // Never into a file the results go to (output FILE), as psql's timing is not.
        if atTerminal { redirect.base.write(line) } else { output.writeError(line) }
    }

    /// `value` with three decimals, rounded.
    private static func threeDecimals(_ value: Double) -> String {
        let thousandths = Int((value * 1_000).rounded())
        let fraction = String(thousandths % 1_000)
        return String(thousandths / 1_000) + "." + String(repeating: "0", count: 3 - fraction.count)
            + fraction
    }

    /// `version`: the program's version, as the session was told to say it.
    func showVersion() -> StepResult {
        output.write(version)
        return settled()
    }

    /// Gives an input to the form: a refusal fails the command, saying why.
    ///
    /// What changed is written either way.
    private func edit(_ input: () throws(PlayerRefusal) -> Void) -> StepResult {
        do throws(PlayerRefusal) {
            try input()
        } catch {
            return refused(error)
        }
        return settled()
    }

    /// Writes what the form's refusal changed, then the refusal, and fails the command.
    private func refused(_ refusal: PlayerRefusal) -> StepResult {
        log.flushState()
        log.error(FormRenderer.refusalText(refusal))
        return .failed
    }

    /// Writes what changed, and succeeds.
    private func settled() -> StepResult {
        log.flushState()
        return .succeeded
    }

    /// Writes what a stepper input changed, and whether it was kept within bounds or stopped.
    private func finish(_ outcome: StepperOutcome) -> StepResult {
        log.flushState()
        if let clamped = renderer.clampedLine(outcome) { output.write(clamped) }
        if let refusal = outcome.refusal {
            log.error(FormRenderer.refusalText(refusal))
            return .failed
        }
        return .succeeded
    }

    /// Writes what a run of presses changed; a run stopped by a refusal fails, saying how many
    /// presses counted, and one stopped at a bound succeeds, saying so.
    private func finishPresses(_ outcome: StepperOutcome, command: String) -> StepResult {
        log.flushState()
        if let line = renderer.boundLine(command: command, outcome) { output.write(line) }
        if let line = renderer.stoppedLine(command: command, outcome) {
            log.error(line)
            return .failed
        }
        return .succeeded
    }

    /// `upload`.
    func upload() async -> StepResult {
        let form = self.form
        let output = self.output
        interrupts?.whileRunning {
            // Readline keeps the terminal from echoing keys, so show that Ctrl-C was heard.
            output.write("^C")
            form.uploadCancelTapped()
        }
        defer { interrupts?.whileRunning(nil) }
        let result = await form.uploadTapped()
        log.flushState()
        switch result {
        case .uploaded:
            // A player out of view is in the roster only once it is read again: the store is asked
            // before the next line (or the end of the input), so a script says so right after the
            // upload, not whenever it next asks; a terminal asks before every prompt anyway.
            nextCatchUp = nil
            return .succeeded
        case .refused(let refusal):
            log.error(FormRenderer.refusalText(refusal))
            return .failed
        case .failed, .cancelled:
            // The view model's message has said what happened; report it once.
            if !log.takeUploadFailure() { log.error("The upload did not finish.") }
            return .failed
        }
    }
}
