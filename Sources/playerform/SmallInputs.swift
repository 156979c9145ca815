import Foundation
import PlayerFormRecords

/// What checking one input found, away from the outputs: written out later, in input order.
struct InputOutcome {
    /// Why the input could not be opened; nothing else is then set.
    var openFailure: String?
    var tally = ValidationTally()
    var ending = RecordEvent.end
    /// The findings' text, as it goes to the output.
    var findings: [UInt8] = []
}

/// Checks small inputs on every core ahead of the run, which takes their outcomes in input order:
/// many small files (`find ... -print0 | playerform validate --files0-from -`) are checked at
/// once, where each alone is too small for its records to be split among threads.
///
/// Each of `threadCount` threads takes the next of `indices` (the inputs, in order, it may check)
/// and checks it with `check`; it does not start one more than `window` inputs ahead of the one
/// the run takes next, so the outcomes held stay few.
final class SmallInputs: @unchecked Sendable {
    // @unchecked: `outcomes`, `started` and `taken` are read and written only while `condition`
    // is locked; `check` is called on the threads, each call on an input of its own.
    private let indices: [Int]
    private let checked: Set<Int>
    private let check: (Int) -> InputOutcome
    private let window: Int
    private let condition = NSCondition()
    private var outcomes: [Int: InputOutcome] = [:]
    private var started = 0
    /// The input the run takes next.
    private var taken = 0

    init(indices: [Int], threadCount: Int, window: Int, check: @escaping (Int) -> InputOutcome) {
        self.indices = indices
        self.checked = Set(indices)
        self.check = check
        self.window = window
        for _ in 0..<threadCount {
            let thread = Thread { self.work() }
            thread.stackSize = 4 << 20
            thread.start()
        }
    }

    /// Whether input `index` is checked here.
    func checks(_ index: Int) -> Bool {
        checked.contains(index)
    }

    /// The outcome of input `index`, one of ``checks(_:)``'s, once it is checked.
    func outcome(of index: Int) -> InputOutcome {
        condition.lock()
        defer { condition.unlock() }
        taken = index
        condition.broadcast()
        while outcomes[index] == nil { condition.wait() }
        return outcomes.removeValue(forKey: index)!
    }

    /// Tells the threads that the run has gone past every input: they start no more.
    func stop() {
        condition.lock()
        started = indices.count
        condition.broadcast()
        condition.unlock()
    }

    private func work() {
        while true {
            condition.lock()
            while started < indices.count && indices[started] > taken + window { condition.wait() }
            guard started < indices.count else {
                condition.unlock()
                return
            }
            let index = indices[started]
            started += 1
            condition.unlock()
            let outcome = check(index)
            condition.lock()
            outcomes[index] = outcome
            condition.broadcast()
            condition.unlock()
        }
    }
}
