import Synchronization

/// A handle that ends an observation or releases a resource.
///
/// Disposing is idempotent and thread-safe: the action runs at most once.
///
/// ```swift
/// let observation = signal.observeValues { print($0) }
/// observation.dispose()  // no further values are printed
/// ```
public final class Disposable: Sendable {
    private let action: Mutex<(@Sendable () -> Void)?>

    /// Creates a disposable that runs `action` the first time it is disposed.
    public init(_ action: @escaping @Sendable () -> Void) {
        self.action = Mutex(action)
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

/// Disposables that end together when ``dispose()`` is called, and only then: what an operator
/// keeps for one observation.
///
/// Unlike ``DisposeBag`` it does nothing when deallocated, so an observation whose disposable the
/// caller discards goes on until its sources end it.
public final class CompositeDisposable: Sendable {
    @usableFromInline let items = Locked<[Disposable]?>([])

    /// Creates an empty composite.
    @inlinable public init() {}

    /// Whether the composite has been disposed.
    public var isDisposed: Bool {
        items.withLock { $0 == nil }
    }

    /// Adds `disposable`; disposes it at once when the composite is already disposed.
    @inlinable public func insert(_ disposable: Disposable) {
        let accepted = items.withLock { items -> Bool in
            guard items != nil else { return false }
            items!.append(disposable)
            return true
        }
        if !accepted { disposable.dispose() }
    }

    /// Disposes everything inserted, in order; later insertions are disposed at once.
    @inlinable public func dispose() {
        let taken = items.withLock { items -> [Disposable] in
            defer { items = nil }
            return items ?? []
        }
        for item in taken { item.dispose() }
    }
}

/// Owns disposables and disposes all of them when it is deallocated or disposed.
///
/// Keep a bag in the object that observes; when the object goes away, so do its observations.
/// A disposable inserted after the bag was disposed is disposed at once.
public final class DisposeBag: Sendable {
    private let composite = CompositeDisposable()

    /// Creates an empty bag.
    public init() {}

    deinit {
        composite.dispose()
    }

    /// Whether the bag has been disposed.
    public var isDisposed: Bool { composite.isDisposed }

    /// Adds `disposable`; disposes it at once when the bag is already disposed.
    public func insert(_ disposable: Disposable) {
        composite.insert(disposable)
    }

    /// Disposes everything in the bag, in the order it was inserted.
    public func dispose() {
        composite.dispose()
    }
}
