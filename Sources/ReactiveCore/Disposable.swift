/// A handle that ends an observation or releases a resource.
///
/// Disposing is idempotent and thread-safe: the action runs at most once.
///
/// ```swift
/// let observation = signal.observeValues { print($0) }
/// observation.dispose()  // no further values are printed
/// ```
public final class Disposable: Sendable {
    private let action: Locked<(@Sendable () -> Void)?>

    /// Creates a disposable that runs `action` the first time it is disposed.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = Locked(action)
    }

    /// A disposable that does nothing.
    public static var empty: Disposable { Disposable {} }

    /// Whether ``dispose()`` has been called.
    public var isDisposed: Bool {
        action.withLock { $0 == nil }
    }

    /// Runs the action, once.
    public func dispose() {
        let pending = action.withLock { action -> (@Sendable () -> Void)? in
            defer { action = nil }
            return action
        }
        pending?()
    }

    /// Hands this disposable to `bag`, which disposes it when the bag goes away.
    public func dispose(in bag: DisposeBag) {
        bag.insert(self)
    }
}

/// Owns disposables and disposes all of them when it is deallocated or disposed.
///
/// Keep a bag in the object that observes; when the object goes away, so do its observations.
/// A disposable inserted after the bag was disposed is disposed at once.
public final class DisposeBag: Sendable {
    private let items = Locked<[Disposable]?>([])

    /// Creates an empty bag.
    public init() {}

    deinit {
        dispose()
    }

    /// Whether the bag has been disposed.
    public var isDisposed: Bool {
        items.withLock { $0 == nil }
    }

    /// Adds `disposable`; disposes it at once when the bag is already disposed.
    public func insert(_ disposable: Disposable) {
        let accepted = items.withLock { items -> Bool in
            guard items != nil else { return false }
            items!.append(disposable)
            return true
        }
        if !accepted { disposable.dispose() }
    }

    /// Disposes everything in the bag, in the order it was inserted.
    public func dispose() {
        let taken = items.withLock { items -> [Disposable] in
            defer { items = nil }
            return items ?? []
        }
        for item in taken { item.dispose() }
    }
}
