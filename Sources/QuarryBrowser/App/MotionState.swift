/// What the table's motions remember between keys: the count being typed (`10` of `10j`),
/// whether "press ? for help" was said already, and the back stack of hops (`Enter` on a to-one
/// cell, `Backspace`/`Ctrl-O` back).
@MainActor
struct MotionState {
    /// The largest count a prefix takes; more digits keep it there.
    static let maxCount = 9_999_999
    /// How many hops the back stack keeps (the oldest go first).
    static let maxHops = 100

    /// The count typed so far (`nil`: none).
    var count: Int?
    /// Whether an unknown key has been answered with "press ? for help" (said once).
    var hintedHelp = false
    /// The views left by following a relationship, newest last.
    var backStack: [EntityView] = []

    /// Adds a digit to the count (a `0` only continues one); returns whether `c` was taken.
    mutating func take(digit c: Character) -> Bool {
        guard c.isASCII, let d = c.wholeNumberValue, d > 0 || count != nil else { return false }
        count = min(Self.maxCount, (count ?? 0) * 10 + d)
        return true
    }

    /// The count typed, cleared.
    mutating func takeCount() -> Int? {
        defer { count = nil }
        return count
    }

    /// Remembers `view` as the place a hop left, dropping the oldest past ``maxHops``.
    mutating func push(_ view: EntityView) {
        backStack.append(view)
        if backStack.count > Self.maxHops { backStack.removeFirst(backStack.count - Self.maxHops) }
    }
}
