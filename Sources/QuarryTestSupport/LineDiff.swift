/// A line diff of two texts, for a golden test's failure message: the changed lines with their
/// numbers in the expected (`-`) and the actual (`+`) text and a few unchanged lines around them.
///
/// A longest common subsequence of the lines (dynamic programming: the texts compared are a
/// screen or a help page, a few hundred lines at most).
public struct LineDiff: Sendable {
    /// One line of the diff.
    public enum Line: Sendable, Equatable {
        /// A line in both texts: its numbers in the expected and the actual text (from 1).
        case same(expected: Int, actual: Int, text: String)
        /// A line of the expected text only.
        case removed(expected: Int, text: String)
        /// A line of the actual text only.
        case added(actual: Int, text: String)
    }

    /// Every line of both texts, in order, unchanged ones included.
    public let lines: [Line]

    /// Compares `expected` with `actual`, line by line.
    public init(expected: [String], actual: [String]) {
        let n = expected.count, m = actual.count
        // common[i][j]: the length of a longest common subsequence of expected[i...] and actual[j...].
        var common = Array(repeating: Array(repeating: 0, count: m + 1), count: n + 1)
        for i in stride(from: n - 1, through: 0, by: -1) {
            for j in stride(from: m - 1, through: 0, by: -1) {
                common[i][j] = expected[i] == actual[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var result: [Line] = []
        var i = 0, j = 0
        while i < n || j < m {
            if i < n, j < m, expected[i] == actual[j] {
                result.append(.same(expected: i + 1, actual: j + 1, text: expected[i]))
                i += 1
                j += 1
            } else if i < n, j == m || common[i + 1][j] >= common[i][j + 1] {
                // A removed line before the added one that replaces it, as diff prints them.
                result.append(.removed(expected: i + 1, text: expected[i]))
                i += 1
            } else {
                result.append(.added(actual: j + 1, text: actual[j]))
                j += 1
            }
        }
        lines = result
    }

    /// Whether the texts differ.
    public var hasChanges: Bool {
        lines.contains { if case .same = $0 { false } else { true } }
    }

    /// The changed lines with `context` unchanged lines around each run of changes, one a
    /// line: `-   12 │text` for a line of the expected text only, `+   12 │text` for one of the
    /// actual text only, `    12 │text` for an unchanged one (its number in the actual text),
    /// and `…` where unchanged lines are left out. A line's end is marked `⏎` when it ends in
    /// blanks, so a difference in trailing blanks shows.
    public func text(context: Int = 2) -> String {
        let changed = lines.indices.filter { if case .same = lines[$0] { false } else { true } }
        guard !changed.isEmpty else { return "" }
        var shown = Set<Int>()
        for index in changed {
            for near in max(0, index - context)...min(lines.count - 1, index + context) { shown.insert(near) }
        }
        var output: [String] = []
        var previous: Int?
        for index in shown.sorted() {
            if let previous, index > previous + 1 { output.append("      …") }
            if previous == nil, index > 0 { output.append("      …") }
            output.append(Self.format(lines[index]))
            previous = index
        }
        if let previous, previous < lines.count - 1 { output.append("      …") }
        return output.joined(separator: "\n")
    }

    private static func format(_ line: Line) -> String {
        switch line {
        case .same(_, let actual, let text): return "  " + number(actual) + " │" + visible(text)
        case .removed(let expected, let text): return "- " + number(expected) + " │" + visible(text)
        case .added(let actual, let text): return "+ " + number(actual) + " │" + visible(text)
        }
    }

    private static func number(_ n: Int) -> String {
        let digits = String(n)
        return String(repeating: " ", count: max(0, 4 - digits.count)) + digits
    }

    private static func visible(_ text: String) -> String {
        text.last == " " || text.last == "\t" ? text + "⏎" : text
    }
}
