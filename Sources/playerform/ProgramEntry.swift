import Dispatch
import Glibc

/// The program's entry point: runs ``PlayerFormCommand/main()`` on the cooperative pool, and
/// takes the process's signals on the main thread while it waits.
///
/// Swift's asynchronous entry point hands the main thread to `dispatchMain()`, which ends it with
/// `pthread_exit`, and ending a thread unwinds its stack. In the fully static build the unwinder's
/// first use sorts the call frame tables of the whole program, tens of milliseconds, so that
/// entry point made every session start slow. This one keeps what `dispatchMain()` arranged for
/// signals: the main thread, with no signal blocked (not even those the parent process blocked),
/// is where handlers run, since every thread of the pool blocks them. Nothing in the program runs
/// on the main actor.
@main
enum ProgramEntry {
    static func main() {
        var none = sigset_t()
        sigemptyset(&none)
        pthread_sigmask(SIG_SETMASK, &none, nil)
        let finished = DispatchSemaphore(value: 0)
        Task.detached {
            await PlayerFormCommand.main()
            finished.signal()
        }
        finished.wait()
    }
}
