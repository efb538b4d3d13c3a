import Synchronization
import _FoundationICU

/// A `MATCHES` pattern compiled with ICU's regular-expression engine (the engine behind
/// `NSRegularExpression`, so the syntax is the same) and matched under a step budget
/// (`uregex_setTimeLimit`): a pattern that backtracks catastrophically
/// (`(.*)*(.*)*(.*)*z`) stops after a bounded number of engine steps with
/// ``QueryError/regexTooCostly(pattern:)``, deterministically, instead of spinning for minutes.
///
/// A compiled pattern is shared; each match borrows a matcher (an ICU clone: matching state is
/// per matcher) from a small pool behind a `Mutex`, so any thread may match at any time.
final class BoundedRegex: @unchecked Sendable {
    // `pattern` (the ICU object) is only cloned, never matched; matchers are used by one
    // thread at a time (taken from and returned to `matchers` under its Mutex).

    /// The budget in ICU's time-limit units (about 10,000 engine steps each): ~1 million
    /// steps, milliseconds for any sane pattern on any field.
    static let stepBudget: Int32 = 100

    /// The pattern as written in the predicate.
    let source: String
    private let compiled: OpaquePointer
    private let matchers = Mutex<[Matcher]>([])

    /// One ICU matcher, used by one thread at a time (moved in and out of `matchers`).
    private struct Matcher: @unchecked Sendable {
        let pointer: OpaquePointer
    }
    /// The text of an empty string (ICU wants a pointer even for no characters).
    private let emptyText: UnsafeMutablePointer<UInt16> = {
        let pointer = UnsafeMutablePointer<UInt16>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return pointer
    }()

    /// Compiles `source` for whole-string matches; `nil` when it is not a valid pattern.
    init?(_ source: String, caseInsensitive: Bool) {
        let wrapped = Array("^(?:\(source))$".utf16)
        var status = U_ZERO_ERROR
        let flags = caseInsensitive ? UInt32(UREGEX_CASE_INSENSITIVE.rawValue) : 0
        guard let compiled = swift_uregex_open(wrapped, Int32(wrapped.count), flags, nil, &status), status.rawValue <= 0 else {
            return nil
        }
        self.source = source
        self.compiled = compiled
    }

    deinit {
        for matcher in matchers.withLock({ $0 }) { swift_uregex_close(matcher.pointer) }
        swift_uregex_close(compiled)
        emptyText.deallocate()
    }

    /// Whether the whole of `text` matches.
    /// - Throws: ``QueryError/regexTooCostly(pattern:)`` when the match needs more than the budget.
    func matches(_ text: String) throws(QueryError) -> Bool {
        guard let matcher = borrow()?.pointer else { throw QueryError.invalidRegularExpression(source) }
        defer { giveBack(matcher) }
        var status = U_ZERO_ERROR
        let units = Array(text.utf16)
        let found = units.withUnsafeBufferPointer { buffer -> UBool in
            // The matcher keeps a pointer into `units` until its next setText; it is never used before.
            swift_uregex_setText(matcher, buffer.baseAddress ?? UnsafePointer(emptyText), Int32(buffer.count), &status)
            return swift_uregex_find(matcher, 0, &status)
        }
        if status == U_REGEX_TIME_OUT || status == U_REGEX_STACK_OVERFLOW { throw QueryError.regexTooCostly(pattern: source) }
        return status.rawValue <= 0 && found != 0
    }

    private func borrow() -> Matcher? {
        if let matcher = matchers.withLock({ $0.popLast() }) { return matcher }
        var status = U_ZERO_ERROR
        guard let matcher = swift_uregex_clone(compiled, &status), status.rawValue <= 0 else { return nil }
        swift_uregex_setTimeLimit(matcher, Self.stepBudget, &status)
        return Matcher(pointer: matcher)
    }

    private func giveBack(_ matcher: OpaquePointer) {
        let kept = matchers.withLock { pool -> Bool in
            guard pool.count < 8 else { return false }
            pool.append(Matcher(pointer: matcher))
            return true
        }
        if !kept { swift_uregex_close(matcher) }
    }
}

