// Per-edit cost of the name -> validity pipeline: edit the name, recompute validity, deliver it to
// three observers. The view model is measured against a hand-written closure baseline doing the
// same work (store the name, check it against the forbidden names, validate, call three closures),
// in interleaved rounds of one run, and allocations per edit are counted in steady state.
import MallocInterposerSwift
import PlayerForm
import PlayerFormRules
import PlayerFormScores
import ReactiveCore

#if canImport(Glibc)
    import Glibc
#endif

nonisolated(unsafe) var sink = 0

/// The same work without the reactive core: what a view controller would write by hand.
final class HandWrittenForm {
    let rules = PlayerRules.defaults
    var name = "Colin"
    let points = 100.0
    var observers: [([ValidationIssue]) -> Void] = []
    var forbiddenNameEntered: (String) -> Void = { _ in }

    func nameEdited(_ text: String) {
        name = text
        if rules.isForbidden(text) {
            forbiddenNameEntered(text)
            name = ""
        }
        let issues = rules.validate(name: name, points: points)
        for observer in observers { observer(issues) }
    }
}

let names = ["Alice", "Bobby"]
let editsPerRound = 100_000
let rounds = 15

/// Attaches the observers outside the main actor, as a view's bindings would be made: closures
/// written in top-level code would carry the main actor's isolation checks into every call.
nonisolated func bind(_ form: PlayerViewModel, in bindings: DisposeBag) {
    for _ in 0..<3 {
        form.issues.changes.observeValues(in: bindings) { issues in sink &+= issues.count &+ 1 }
    }
}

nonisolated func bind(_ baseline: HandWrittenForm) {
    for _ in 0..<3 {
        baseline.observers.append { issues in sink &+= issues.count &+ 1 }
    }
}

let form = PlayerViewModel(store: InMemoryScoreStore())
let bindings = DisposeBag()
bind(form, in: bindings)
let baseline = HandWrittenForm()
bind(baseline)

@MainActor func runViewModel(_ edits: Int) {
    for index in 0..<edits {
        try! form.nameEdited(names[index & 1])
    }
}

@MainActor func runBaseline(_ edits: Int) {
    for index in 0..<edits {
        baseline.nameEdited(names[index & 1])
    }
}

func nanosecondsPerEdit(_ body: (Int) -> Void) -> Double {
    var start = timespec()
    var end = timespec()
    clock_gettime(CLOCK_MONOTONIC, &start)
    body(editsPerRound)
    clock_gettime(CLOCK_MONOTONIC, &end)
    let elapsed = Double(end.tv_sec - start.tv_sec) * 1e9 + Double(end.tv_nsec - start.tv_nsec)
    return elapsed / Double(editsPerRound)
}

func allocationsPerEdit(_ body: (Int) -> Void) -> Double? {
    // Prove the counter works here before trusting a zero.
    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    let probe = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 16)
    probe.deallocate()
    MallocInterposerSwift.unhook()
    guard MallocInterposerSwift.getStatistics().mallocCount > 0 else { return nil }

    MallocInterposerSwift.reset()
    MallocInterposerSwift.hook()
    body(editsPerRound)
    MallocInterposerSwift.unhook()
    return Double(MallocInterposerSwift.getStatistics().mallocCount) / Double(editsPerRound)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}

MallocInterposerSwift.initialize()
// Warm up both paths.
runViewModel(editsPerRound)
runBaseline(editsPerRound)

var viewModelTimes: [Double] = []
var baselineTimes: [Double] = []
for _ in 0..<rounds {
    viewModelTimes.append(nanosecondsPerEdit(runViewModel))
    baselineTimes.append(nanosecondsPerEdit(runBaseline))
}
let viewModelAllocations = allocationsPerEdit(runViewModel)
let baselineAllocations = allocationsPerEdit(runBaseline)

func format(_ value: Double) -> String {
    let scaled = (value * 100).rounded() / 100
    return "\(scaled)"
}

func format(allocations: Double?) -> String {
    allocations.map { format($0) } ?? "not counted (run with LD_PRELOAD of libMallocInterposerSwift.so)"
}

let viewModelMedian = median(viewModelTimes)
let baselineMedian = median(baselineTimes)
print(
    "name -> validity pipeline, 3 observers, median of \(rounds) interleaved rounds x \(editsPerRound) edits")
print(
    "  view model:  \(format(viewModelMedian)) ns/edit   allocations/edit: \(format(allocations: viewModelAllocations))"
)
print(
    "  baseline:    \(format(baselineMedian)) ns/edit   allocations/edit: \(format(allocations: baselineAllocations))"
)
print("  ratio:       \(format(viewModelMedian / baselineMedian))x the baseline (target: within 3x)")
print("  (checksum \(sink & 0xFFFF))")
