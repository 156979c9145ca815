import Synchronization
import Testing

@testable import PlayerFormSQLite

@Suite("Waiting for a database another process holds")
struct BusyWaitTests {
    /// What a wait announced.
    private final class Said: Sendable {
        let lines = Mutex<[String]>([])
    }

    /// A wait whose announcements are collected in `said`.
    private func makeWait(_ said: Said = Said()) -> BusyWait {
        BusyWait(
            path: "s.sqlite", timeout: .seconds(60), announceAfter: .zero,
            announce: { line in said.lines.withLock { $0.append(line) } })
    }

    @Test("an attempt that does not wait gives up at the first lock, says nothing, and tells its end so")
    func attemptWithoutWaiting() {
        let said = Said()
        let wait = makeWait(said)
        let token = wait.makeToken()
        wait.begin(token, waiting: false)
        #expect(wait.shouldRetry(0) == false)
        #expect(wait.end() == true, "the attempt was refused")
        #expect(said.lines.withLock { $0 } == [])
        // The operation's next attempt waits, and says so.
        wait.begin(token)
        #expect(wait.shouldRetry(0) == true)
        #expect(wait.end() == false)
        #expect(said.lines.withLock { $0.count } == 1)
    }

    @Test("an attempt that does not wait and meets no lock ends as not refused")
    func attemptThatMeetsNoLock() {
        let wait = makeWait()
        let token = wait.makeToken()
        wait.begin(token, waiting: false)
        #expect(wait.end() == false)
    }

    @Test("a cancellation during an attempt that does not wait still stops the attempt that waits")
    func cancellationKeptForTheWaitingAttempt() {
        let wait = makeWait()
        let token = wait.makeToken()
        wait.begin(token, waiting: false)
        wait.cancel(token)
        #expect(wait.isCancelled)
        #expect(wait.shouldRetry(0) == false)
        wait.end()
        wait.begin(token)
        #expect(wait.isCancelled, "the waiting attempt starts cancelled")
        #expect(wait.shouldRetry(0) == false)
        wait.end()
        wait.forget(token)
        // Another operation is not cancelled by it.
        let next = wait.makeToken()
        wait.begin(next)
        #expect(!wait.isCancelled)
        wait.end()
    }

    @Test(
        "a cancellation before an operation begins stops its attempt that does not wait and the one that waits"
    )
    func cancellationBeforeBothAttempts() {
        let wait = makeWait()
        let token = wait.makeToken()
        wait.cancel(token)
        wait.begin(token, waiting: false)
        #expect(wait.isCancelled)
        wait.end()
        wait.begin(token)
        #expect(wait.isCancelled)
        wait.end()
    }

    @Test("a wait stops, as a cancelled one does, once stopWaiting says the program is ending")
    func stopWaiting() {
        let ending = Ending()
        let wait = BusyWait(
            path: "s.sqlite", timeout: .seconds(60), announceAfter: .zero, announce: { _ in },
            stopWaiting: { ending.now.load(ordering: .relaxed) })
        let token = wait.makeToken()
        wait.begin(token)
        #expect(wait.shouldRetry(0) == true)
        ending.now.store(true, ordering: .relaxed)
        #expect(wait.shouldRetry(1) == false)
        #expect(wait.isCancelled)
    }
}

/// Whether the program is ending, for `stopWaiting`.
private final class Ending: Sendable {
    let now = Atomic(false)
}
