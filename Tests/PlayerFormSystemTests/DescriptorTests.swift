import Foundation
import Glibc
import PlayerFormSystem
import Synchronization
import Testing

private let writerInterruptions = Atomic<Int>(0)

@Suite("Writing all of a buffer to a descriptor", .serialized)
struct DescriptorTests {
    @Test("every byte arrives in order when signals cut the writes short on a slowly read pipe")
    func shortWrites() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        let (readEnd, writeEnd) = (ends[0], ends[1])
        defer { close(readEnd) }
        // The smallest pipe Linux gives: the writer blocks often, and a signal then ends its
        // write(2) early with a short count.
        _ = fcntl(writeEnd, 1031, 4096)  // F_SETPIPE_SZ, which Glibc does not export to Swift
        let previous = Signals.install(SIGUSR2) { _ in writerInterruptions.add(1, ordering: .relaxed) }
        defer { Signals.restore(SIGUSR2, previous) }
        let payload = (0..<(1 << 20)).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        let writer = Mutex<pthread_t?>(nil)
        let failure = Mutex<Int32?>(nil)
        let started = DispatchSemaphore(value: 0)
        let released = DispatchSemaphore(value: 0)
        let thread = Thread {
            writer.withLock { $0 = pthread_self() }
            started.signal()
            withUnblocked(SIGUSR2) {
                failure.withLock { $0 = Descriptor.writeAll(payload, to: writeEnd) }
            }
            close(writeEnd)
            // Stays alive until the reader has stopped signalling it.
            released.wait()
        }
        thread.start()
        started.wait()
        let target = try #require(writer.withLock { $0 })
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 997)
        while true {
            pthread_kill(target, SIGUSR2)
            let count = read(readEnd, &chunk, chunk.count)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            received.append(contentsOf: chunk[..<count])
        }
        released.signal()
        #expect(failure.withLock { $0 } == nil)
        #expect(received.count == payload.count)
        // Compared as one Bool: a failure would otherwise print both megabytes.
        let same = received == payload
        #expect(same)
        #expect(writerInterruptions.load(ordering: .relaxed) > 0)
    }

    @Test("a reader that has gone is reported as EPIPE, not by ending the process")
    func brokenPipe() throws {
        var ends: [Int32] = [-1, -1]
        try #require(pipe(&ends) == 0)
        close(ends[0])
        defer { close(ends[1]) }
        // SIGPIPE is blocked on this thread only, and taken back, so the process keeps its own.
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeOnly, nil)
        defer {
            var none = timespec(tv_sec: 0, tv_nsec: 0)
            _ = sigtimedwait(&pipeOnly, nil, &none)
            pthread_sigmask(SIG_UNBLOCK, &pipeOnly, nil)
        }
        #expect(Descriptor.writeAll(Array("lost\n".utf8), to: ends[1]) == EPIPE)
    }

    @Test("a closed descriptor is reported as EBADF; nothing to write succeeds anywhere")
    func badDescriptor() {
        #expect(Descriptor.writeAll(Array("x".utf8), to: -1) == EBADF)
        #expect(Descriptor.writeAll([UInt8](), to: -1) == nil)
    }
}

@Suite("Opening to read")
struct OpenForReadingTests {
    @Test("a FIFO no process writes to opens at once, blocking, and reads what a writer then writes")
    func fifoWithoutWriter() throws {
        let fifo = "/tmp/playerform-fifo-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        // open(2) without O_NONBLOCK would wait here for a writer that never comes.
        let reader = Descriptor.openForReading { open(fifo, $0) }
        try #require(reader >= 0)
        defer { close(reader) }
        #expect(fcntl(reader, F_GETFL) & O_NONBLOCK == 0)
        #expect(fcntl(reader, F_GETFD) & FD_CLOEXEC != 0)
        let writer = open(fifo, O_WRONLY | O_NONBLOCK)
        try #require(writer >= 0)
        #expect(write(writer, "hi", 2) == 2)
        close(writer)
        var bytes = [UInt8](repeating: 0, count: 8)
        #expect(read(reader, &bytes, 8) == 2)
        #expect(Array(bytes.prefix(2)) == Array("hi".utf8))
    }

    @Test("a file that cannot be opened gives -1 and open's errno")
    func missingFile() {
        let descriptor = Descriptor.openForReading { open("/nonexistent/playerform", $0) }
        #expect(descriptor == -1)
        #expect(errno == ENOENT)
    }
}
