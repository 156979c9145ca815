import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension REPLSession {
    /// What the session's terminal offers: colours, Ctrl-C, its size, a pager, and the ticks at
    /// which an idle prompt looks for changes.
    ///
    /// The defaults are a script's: plain text, Ctrl-C not caught, pages of
    /// ``REPLSession/defaultPageSize`` rows, 80 columns, no pager, no idle ticks.
    public struct Terminal {
        /// Colours; plain by default.
        public var style: TerminalStyle
        /// Colours of errors, which go to their own stream; `style` when nil.
        public var errorStyle: TerminalStyle?
        /// Ctrl-C, which cancels a running upload; nil when Ctrl-C is not caught.
        public var interrupts: (any InterruptSource)?
        /// How many rows a page of `players` holds.
        public var pageSize: Int
        /// Asked before each `players` for how many rows a page holds now, at a terminal whose
        /// window may be resized; nil keeps `pageSize`.
        public var pageSizeNow: (@Sendable () -> Int)?
        /// The width `help` wraps to.
        public var columns: @Sendable () -> Int
        /// At a terminal, the pager for output longer than the screen; nil for none.
        public var pager: PagerSettings?
        /// Makes the ticks at which the session checks the store for changes by others, while an
        /// interactive prompt is idle and while `watch` runs (once a second, or as a league
        /// announces changes); nil for no checks while idle, and no `watch`.
        public var idleTicks: (@Sendable () -> AsyncStream<Void>)?

        /// A terminal with these properties; each left out is a script's.
        public init(
            style: TerminalStyle = .plain, errorStyle: TerminalStyle? = nil,
            interrupts: (any InterruptSource)? = nil, pageSize: Int = REPLSession.defaultPageSize,
            pageSizeNow: (@Sendable () -> Int)? = nil, columns: @escaping @Sendable () -> Int = { 80 },
            pager: PagerSettings? = nil, idleTicks: (@Sendable () -> AsyncStream<Void>)? = nil
        ) {
            self.style = style
            self.errorStyle = errorStyle
            self.interrupts = interrupts
            self.pageSize = pageSize
            self.pageSizeNow = pageSizeNow
            self.columns = columns
            self.pager = pager
            self.idleTicks = idleTicks
        }
    }

    /// How the session runs its commands, as the command line chose.
    public struct Options: Sendable {
        /// Stop at the first failed command (scripted mode).
        public var bail: Bool
        /// Write each line of a script before what it prints (`--echo`).
        public var echo: Bool
        /// Where the rules came from, for `rules`: `defaults` or a file's path.
        public var rulesOrigin: String
        /// In a script, asked between commands and while a line is awaited: once it says true,
        /// the script stops there (the program is ending by a signal).
        public var endRequested: (@Sendable () -> Bool)?
        /// The clock `timing` measures commands with: a monotonic time in nanoseconds.
        public var nanoseconds: @Sendable () -> UInt64
        /// What `version` prints: the version number, or the line `--version` prints.
        public var version: String
        /// Why `output FILE` or `once FILE` must not empty the file at a path (the score
        /// database, a script being read), or nil when it may.
        public var resultsFileRefusal: (@Sendable (String) -> String?)?
        /// A file of commands run before any other (`~/.playerformrc`): what they print is not
        /// shown, their errors are, with `FILE:LINE`, and none of them fails the session.
        public var startupFile: String?
        /// How results are written at the start (`--csv`, `--json`); `mode` changes it.
        public var mode: OutputMode
        /// Whether players writes its title and header row at the start (`-t` turns them off);
        /// `headers` changes it.
        public var headers: Bool
        /// The wall clock, for the time `watch` writes above each drawing.
        public var now: @Sendable () -> Date
        /// Waits as long as given, or throws when the task is cancelled: `watch` waits so between
        /// two drawings.
        public var sleep: @Sendable (Duration) async throws -> Void

        /// Options; each left out is the default: every command run, no echo, the default rules,
        /// never asked to end, the system's monotonic clock, the version number.
        public init(
            bail: Bool = false, echo: Bool = false, rulesOrigin: String = "defaults",
            endRequested: (@Sendable () -> Bool)? = nil,
            nanoseconds: @escaping @Sendable () -> UInt64 = Options.monotonicNanoseconds,
            version: String = ProgramVersion.text,
            resultsFileRefusal: (@Sendable (String) -> String?)? = nil, startupFile: String? = nil,
            mode: OutputMode = .table, headers: Bool = true, now: @escaping @Sendable () -> Date = { Date() },
            sleep: @escaping @Sendable (Duration) async throws -> Void = { try await Task.sleep(for: $0) }
        ) {
            self.bail = bail
            self.echo = echo
            self.rulesOrigin = rulesOrigin
            self.endRequested = endRequested
            self.nanoseconds = nanoseconds
            self.version = version
            self.resultsFileRefusal = resultsFileRefusal
            self.startupFile = startupFile
            self.mode = mode
            self.headers = headers
            self.now = now
            self.sleep = sleep
        }

        /// The system's monotonic clock, in nanoseconds.
        @Sendable public static func monotonicNanoseconds() -> UInt64 {
            var time = timespec()
            clock_gettime(CLOCK_MONOTONIC, &time)
            return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
        }
    }
}
