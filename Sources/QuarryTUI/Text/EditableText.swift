/// One line of text being edited, with a caret, edited by grapheme cluster at O(1) amortized
/// cost per key however long the text is.
///
/// A gap buffer: the text before the caret is a `String` that grows and shrinks at its end, the
/// text after it is an array of characters kept in reverse order (its last element is the one
/// right after the caret). Typing, Backspace, Delete and moving the caret by one touch only the
/// ends; drawing looks only at the characters around the caret (``window(width:)``). A
/// combining mark typed after a letter joins it (`e` + U+0301 is one character, `é`).
public struct EditableText: Sendable {
    /// The text before the caret.
    private var before = ""
    /// The text after the caret, last character first.
    private var afterReversed: [Character] = []
    /// How many characters `before` holds (kept, so the caret position never needs a count).
    public private(set) var caret = 0

    /// Text `text` with the caret at its end.
    public init(_ text: String = "") {
        insert(text)
    }

    /// The whole text (O(n): for applying it, not for drawing).
    public var text: String { before + String(afterReversed.reversed()) }

    /// Whether the text is empty.
    public var isEmpty: Bool { before.isEmpty && afterReversed.isEmpty }

    /// Inserts `string` at the caret, as one edit (a paste), and moves the caret after it.
    public mutating func insert(_ string: String) {
        guard !string.isEmpty else { return }
        // A leading combining mark joins the character before the caret instead of adding one.
        let joins = before.last.map { last in string.first.map { (String(last) + String($0)).count == 1 } ?? false } ?? false
        before.append(string)
        caret += string.count - (joins ? 1 : 0)
    }

    /// Inserts one typed character at the caret.
    public mutating func insert(_ character: Character) {
        insert(String(character))
    }

    /// Deletes the character before the caret (Backspace).
    public mutating func deleteBackward() {
        guard !before.isEmpty else { return }
        before.removeLast()
        caret -= 1
    }

    /// Deletes the character after the caret (Delete).
    public mutating func deleteForward() {
        if !afterReversed.isEmpty { afterReversed.removeLast() }
    }

    /// Moves the caret one character left.
    public mutating func moveLeft() {
        guard let last = before.popLast() else { return }
        afterReversed.append(last)
        caret -= 1
    }

    /// Moves the caret one character right.
    public mutating func moveRight() {
        guard let next = afterReversed.popLast() else { return }
        before.append(next)
        caret += 1
    }

    /// Moves the caret to the start.
    public mutating func moveToStart() {
        afterReversed.append(contentsOf: before.reversed())
        before = ""
        caret = 0
    }

    /// Moves the caret to the end.
    public mutating func moveToEnd() {
        while let next = afterReversed.popLast() {
            before.append(next)
            caret += 1
        }
    }

    /// Moves the caret to `position` characters from the start (clamped).
    public mutating func moveCaret(to position: Int) {
        let position = max(0, position)
        while caret > position, !before.isEmpty { moveLeft() }
        while caret < position, !afterReversed.isEmpty { moveRight() }
    }

    /// Removes all the text.
    public mutating func removeAll() {
        before = ""
        afterReversed = []
        caret = 0
    }

    /// What to show in `width` cells so the caret is visible: the visible text, the caret's
    /// column in it, and the index (in characters) of the first character shown.
    ///
    /// Looks only at the characters that fit around the caret, so drawing costs O(width). The
    /// text before the caret is shown from its start when it fits; else it is cut so the caret
    /// has up to a third of the width of following text on its right.
    public func window(width: Int) -> (visible: String, caretColumn: Int, start: Int) {
        let width = max(1, width)
        // Up to a third of the width stays for the text after the caret, so the caret (an
        // error's column, say) is seen with what follows it, not pinned to the right edge.
        var reserve = 0
        for character in afterReversed.reversed() {
            let w = DisplayWidth.of(character)
            if reserve + w > width / 3 { break }
            reserve += w
        }
        var shownBefore: [Character] = []
        var used = 0
        for character in before.reversed() {
            let w = DisplayWidth.of(character)
            if used + w > width - 1 - reserve { break }
            shownBefore.append(character)
            used += w
        }
        let caretColumn = used
        var visible = String(shownBefore.reversed())
        for character in afterReversed.reversed() {
            let w = DisplayWidth.of(character)
            if used + w > width { break }
            visible.append(character)
            used += w
        }
        return (visible, caretColumn, caret - shownBefore.count)
    }
}
