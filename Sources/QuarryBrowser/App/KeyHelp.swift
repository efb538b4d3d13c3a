import QuarryTUI

/// Every key the browser understands, as the help overlay lists them.
enum KeyHelp {
    /// The help entries, grouped.
    static let entries: [ListOverlay.Entry] = [
        .init(label: "Moving", isHeading: true),
        .init(label: "↑ ↓  k j", value: "previous / next row"),
        .init(label: "PgUp PgDn  Ctrl-B Ctrl-F", value: "previous / next page"),
        .init(label: "g G  Home End", value: "first / last row"),
        .init(label: "[ ]", value: "previous / next section"),
        .init(label: "← →  h l", value: "previous / next column"),
        .init(label: "Finding", isHeading: true),
        .init(label: "/", value: "search the sort key (incremental)"),
        .init(label: "n N", value: "next / previous match"),
        .init(label: "f", value: "filter with a predicate (empty clears)"),
        .init(label: "Tab", value: "pick the entity"),
        .init(label: "Esc  Ctrl-C", value: "cancel a running query (filtering…)"),
        .init(label: "Columns", isHeading: true),
        .init(label: "s S", value: "sort by this column ascending / descending"),
        .init(label: "< >", value: "narrow / widen this column"),
        .init(label: "-", value: "hide this column (= shows all)"),
        .init(label: "!", value: "freeze the first column"),
        .init(label: "Objects", isHeading: true),
        .init(label: "Enter", value: "details and relationships (Enter follows, Esc back)"),
        .init(label: "e", value: "edit the row (Ctrl-S save, Esc discard)"),
        .init(label: "a", value: "add an object"),
        .init(label: "d", value: "delete the row (asks first)"),
        .init(label: "x", value: "export the view (entity, filter, sort, visible columns) to CSV, .jsonl or .json"),
        .init(label: "Live", isHeading: true),
        .init(label: "p", value: "pause / resume the live merge"),
        .init(label: "Ctrl-L", value: "redraw the screen"),
        .init(label: "?", value: "this help (Esc closes)"),
        .init(label: "q", value: "quit"),
    ]
}
