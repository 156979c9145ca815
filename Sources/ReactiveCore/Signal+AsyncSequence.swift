extension Signal: AsyncSequence {
    /// The signal's values.
    public typealias Element = Value

    /// Iterates the values of the signal with `for await`; the loop ends when the signal completes.
    ///
    /// Values that arrive while the loop body runs are buffered, in order.
    ///
    /// ```swift
    /// for await points in viewModel.points.values {
    ///     print(points)
    /// }
    /// ```
    public func makeAsyncIterator() -> AsyncStream<Value>.Iterator {
        stream().makeAsyncIterator()
    }

    /// The values of the signal as an `AsyncStream`; ending the iteration ends the observation.
    public func stream() -> AsyncStream<Value> {
        AsyncStream { continuation in
            let observation = self.observe(
                Observer { event in
                    switch event {
                    case .value(let value): continuation.yield(value)
                    case .completed: continuation.finish()
                    }
                })
            continuation.onTermination = { _ in observation.dispose() }
        }
    }
}
