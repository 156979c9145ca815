import Glibc
import PlayerFormSystem

/// The program's entry point: runs the command as a task whose jobs run on the main thread
/// (``ThreadExecutor``), so that a command that starts no thread itself runs on this one alone.
///
/// Swift's asynchronous entry point hands the main thread to `dispatchMain()`, which ends it with
/// `pthread_exit`, and ending a thread unwinds its stack. In the fully static build the unwinder's
/// first use sorts the call frame tables of the whole program, tens of milliseconds, so that
/// entry point made every session start slow. This one keeps what `dispatchMain()` arranged for
/// signals: the main thread, with no signal blocked (not even those the parent process blocked),
/// is where the handlers of asynchronous signals (Ctrl-C, `SIGTERM`, ...) run, since the threads
/// of the pool block those.
///
/// Standard streams the caller left closed are opened on `/dev/null` first
/// (`Descriptor.occupyClosedStandardDescriptors()`), so that the database and the runtime's own
/// descriptors never take their numbers.
///
/// A signal's handler may so interrupt the command itself. The handlers only store to atomics and
/// write to pipes, and are installed with `SA_RESTART`; the waits that a signal ends early (`poll`
/// for a script's next line, `waitpid` for the pager) look again at what the handler set.
/// Nothing drains the main actor or the main dispatch queue: work scheduled on them would never
/// run, so the program schedules none.
@main
enum ProgramEntry {
    static func main() {
        Descriptor.occupyClosedStandardDescriptors()
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        let executor = ThreadExecutor()
        Task.detached(executorPreference: executor) {
            await PlayerFormCommand.main()
            executor.stop()
        }
        executor.run()
    }
}
