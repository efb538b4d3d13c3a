import Quarry
import QuarryTUI

/// What is drawn over the table and receives the keys, if anything.
@MainActor
enum Overlay {
    /// The help overlay, scrolled.
    case help(scroll: Int)
    /// A one-line prompt (filter or search).
    case prompt(PromptState)
    /// The entity picker with the selected entry.
    case picker(selected: Int)
    /// The detail view: a stack of pages, the last on top.
    case detail([DetailPage])
    /// An edit form in a creator context.
    case form(EditSession)
    /// A yes/no question.
    case confirm(Confirmation)
    /// A stack of list pages (schema, history), the last on top.
    case text([ListPage])
    /// The frequency view of a key path (`F`, `:freq`), live.
    case frequency(FrequencyView)
}

/// The state of the filter or search prompt.
///
/// A class, so typing edits the text in place: a struct held by the overlay enum would be
/// copied (with its whole text) on every key.
@MainActor
final class PromptState {
    /// Which prompt.
    enum Kind { case filter, search, export, command }
    /// Which prompt this is.
    let kind: Kind
    /// The text typed, with its caret.
    var text: EditableText
    /// The last error and the column it points at.
    var error: (message: String, column: Int?)?
    /// Where the cursor was when the search started (restored on Esc).
    let origin: ObjectID?
    /// Whether the search text typed so far matches no row (Enter then puts the cursor back).
    var hasNoMatch = false
    /// The column a search looks in (an index into the table's columns), if not the sort key.
    var searchColumn: ColumnSpec?
    /// Where ↑/↓ are in the prompt history: an index into it, or `nil` at the line being typed.
    var historyIndex: Int?
    /// The line being typed when ↑ first went into the history (↓ past the newest brings it back).
    var draft: String?
    /// The completions Tab cycles through, which one is shown, and where it starts in the text.
    var completions: (candidates: [String], index: Int, start: Int)?
    /// For an export prompt opened on a `:since` page (`x`): the pages, which the export
    /// writes the list of and Esc or the export's end return to.
    var sincePages: [ListPage]?

    /// A prompt of `kind` holding `text` with the caret at its end.
    init(kind: Kind, text: String, origin: ObjectID? = nil) {
        self.kind = kind
        self.text = EditableText(text)
        self.origin = origin
    }
}

/// A yes/no question and what `y` does.
@MainActor
struct Confirmation {
    /// The box title.
    var title: String
    /// The question, one line each.
    var lines: [String]
    /// What answering yes does.
    var onYes: @MainActor () -> Void
    /// What answering no does (by default: just close the question).
    var onNo: (@MainActor () -> Void)? = nil
    /// The form this question was asked over, if any (a quit then asks about it, not about the
    /// question).
    var form: EditSession? = nil
}
