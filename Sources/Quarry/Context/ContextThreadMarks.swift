import Foundation

/// Which contexts' queues the current thread is running a block for (through `perform` or
/// `performAndWait`).
///
/// A context's `performAndWait` runs inline when the current thread already holds that
/// context's queue further down its stack: a parent context's block waiting synchronously for
/// its child, which asks the parent for data, must not wait for itself (Core Data's reentrancy).
enum ContextThreadMarks {
    private final class Marks {
        var active: [ObjectIdentifier] = []
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pointer in
            guard let pointer else { return }
            Unmanaged<AnyObject>.fromOpaque(pointer).release()
        }
        return key
    }()

    private static var current: Marks {
        if let pointer = pthread_getspecific(key) {
            return Unmanaged<Marks>.fromOpaque(pointer).takeUnretainedValue()
        }
        let marks = Marks()
        pthread_setspecific(key, Unmanaged.passRetained(marks).toOpaque())
        return marks
    }

    /// Whether the current thread is inside a block of `context`'s queue.
    static func isActive(_ context: ObjectContext) -> Bool {
        let id = ObjectIdentifier(context)
        return current.active.contains(id)
    }

    /// Runs `body` with `context` marked active on this thread.
    static func with<T>(_ context: ObjectContext, _ body: () throws -> T) rethrows -> T {
        let marks = current
        marks.active.append(ObjectIdentifier(context))
        defer { marks.active.removeLast() }
        return try body()
    }
}
