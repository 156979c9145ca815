import Dispatch
import Foundation

/// Calls its action when an input has nothing more to give for now; a `RecordPipeline` sets the
/// action so that the records read so far are handed over and their findings written out.
public final class IdleRelay: @unchecked Sendable {
    // @unchecked: `action` is set once, by the pipeline that owns the relay, before its reading
    // thread starts; from then on it is only read, on that thread.
    var action: () -> Void = {}

    /// A relay with nothing to do yet.
    public init() {}

    /// Runs the action; called by a ``FileDescriptorSource`` on the reading thread.
    public func callAsFunction() { action() }
}

/// What the reading thread hands over: records in input order, and how the input ended.
struct RecordBatch: Sendable {
    var records: [NumberedRecord]
    /// Set on the last batch only.
    var ending: RecordEvent?
    /// The input ran dry after these records: findings so far should be written out.
    var inputIdle: Bool
    /// How many bytes of the input had been read when the batch was handed over.
    var bytesRead: Int
}

/// Reads and parses records on a thread of its own and hands them over in batches, so reading
/// and validating overlap on two cores.
///
/// At most `depth` batches wait, so memory stays bounded.
final class RecordPipeline<Source: ByteSource>: @unchecked Sendable {
    // @unchecked: `reader` and `pending` belong to the reading thread alone; what crosses threads
    // is `waiting`, under `lock`, and the semaphores, which are thread-safe. The lock is a
    // pthread mutex (NSLock), whose ordering the thread sanitizer sees, as it does not see that
    // of a futex-based Mutex handed over between the semaphores.
    private let reader: RecordReader<Source>
    private let batchSize = 4096
    private let free: DispatchSemaphore
    private let filled = DispatchSemaphore(value: 0)
    private let lock = NSLock()
    private var waiting: [RecordBatch] = []
    /// Only the reading thread touches this, and ``bytesSeen``.
    private var pending: [NumberedRecord] = []

    init(reader: RecordReader<Source>, idle: IdleRelay, depth: Int = 4) {
        self.reader = reader
        self.free = DispatchSemaphore(value: depth)
        idle.action = { [unowned self] in handOver(ending: nil, idle: true) }
    }

    /// Starts the reading thread.
    func start() {
        Thread { self.produce() }.start()
    }

    /// The next batch, waiting for the reading thread when none is ready.
    func next() -> RecordBatch {
        filled.wait()
        let batch = lock.withLock { waiting.removeFirst() }
        free.signal()
        return batch
    }

    private func produce() {
        pending.reserveCapacity(batchSize)
        while true {
            let event = reader.next()
            guard case .record(let record) = event else {
                bytesSeen = reader.bytesRead
                handOver(ending: event, idle: false)
                return
            }
            pending.append(record)
            if pending.count >= batchSize {
                bytesSeen = reader.bytesRead
                handOver(ending: nil, idle: false)
            }
        }
    }

    /// The bytes the reader had read when last asked, between two records: a batch handed over
    /// while the input ran dry comes from inside the reader, which must not be asked then.
    private var bytesSeen = 0

    private func handOver(ending: RecordEvent?, idle: Bool) {
        let batch = RecordBatch(records: pending, ending: ending, inputIdle: idle, bytesRead: bytesSeen)
        pending = []
        pending.reserveCapacity(batchSize)
        free.wait()
        lock.withLock { waiting.append(batch) }
        filled.signal()
    }
}
