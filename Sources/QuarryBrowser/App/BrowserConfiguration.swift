import Foundation
import Quarry
import QuarryTUI

/// What the browser opens: the store's title, the entity and its order, sections and filter,
/// the theme, and whether editing is allowed.
public struct BrowserConfiguration: Sendable {
    /// The store's name for the title bar (usually the file name).
    public var storeTitle: String
    /// The entity shown first.
    public var entityName: String
    /// The initial order (the section key is put first when needed); empty for object-ID order.
    public var sort: [SortKey]
    /// The key path to section by, if any.
    public var sectionKey: String?
    /// The initial filter in the predicate format language, if any.
    public var filter: String?
    /// Disables editing (`e`, `a`, `d`); the store itself should also be opened read-only.
    public var isReadOnly: Bool
    /// The theme (already adapted to the terminal's colours).
    public var theme: Theme
    /// A message to show at start (for example a malformed theme file that was replaced by the default).
    public var startMessage: String?
    /// Whether the first query's sorted index is kept in the fetched-results cache
    /// (``FetchedResultsController/cacheName``, in `$XDG_CACHE_HOME/quarry/frc`), so that
    /// reopening an unchanged store reads it back instead of querying every row. `quarry`
    /// turns it on; off by default.
    public var usesIndexCache = false
    /// How many rows the first screen's query reads, the full index being built (or read from
    /// the cache) afterwards off the main queue, keys that need every row waiting for it; 0
    /// reads the whole index before the first screen. `quarry` uses ``previewRows``; 0 by
    /// default.
    public var firstScreenRows = 0
    /// The store's estimate of the first table's rows (PostgreSQL's `reltuples` for a schema
    /// Quarry did not make), shown as `≈N…` while the first screen is a preview of an
    /// unfiltered table, until the exact count arrives with the full index; `nil` shows `≥N…`.
    public var estimatedRowCount: Int?
    /// The token the full index's query runs under after a preview (Esc does not cancel it: the
    /// browser needs every row); tests pass one whose progress hook holds the query.
    public var fullIndexCancellation: QueryCancellation?
    /// Where the prompts' history is kept between runs (``PromptHistory/defaultFile(environment:)``
    /// for `quarry`); `nil` (the default) keeps it in memory only.
    public var historyFile: URL?
    /// How many rows the table faults from the store at once (the controller's
    /// ``FetchRequest/fetchBatchSize``, RBCoreDataAdditions' table batch size): drawing a row
    /// that is still a fault reads its whole batch, and its to-one destinations, in one query.
    /// `quarry browse --batch-size N` sets it; 50 by default (``defaultBatchSize``).
    public var batchSize = BrowserConfiguration.defaultBatchSize
    /// The table's batch size unless configured: a screenful or two of rows.
    public static let defaultBatchSize = 50
    /// Whether clicks and the wheel are used (`--no-mouse` turns them off); the backend is made
    /// with mouse reporting accordingly.
    public var usesMouse = true
    /// Where `:theme NAME` looks for `NAME.toml` and where Tab finds the names it offers (read
    /// at each use, so a theme added meanwhile is found); `default` is always offered, compiled
    /// in. By default the places `--theme` searches
    /// (``ThemeLoader/defaultSearchDirectories(environment:executableURL:)``: the user's own
    /// themes, then the shipped `Themes/` folder), found when first read rather than when the
    /// configuration is made.
    public var themeSearchDirectories: [URL] {
        get {
            chosenThemeSearchDirectories ?? ThemeLoader.defaultSearchDirectories(
                environment: ProcessInfo.processInfo.environment, executableURL: Bundle.main.executableURL)
        }
        set { chosenThemeSearchDirectories = newValue }
    }
    /// ``themeSearchDirectories`` once set; `nil` for the default places.
    private var chosenThemeSearchDirectories: [URL]?
    /// How the table shows the cells of some columns (`quarry browse --formats FILE`, read by
    /// ``CellFormatFile``); other columns show their default text. Only table cells are
    /// formatted: the detail page and the edit form keep the raw values (an edit parses what
    /// the user types, never formatted text). Empty by default.
    public var cellFormats: [CellFormatKey: CellFormat] = [:]
    /// What Enter does on a table row (`quarry browse --on-enter`); Enter on a collapsed
    /// section's header always expands it. ``SelectionAction/openDetail`` by default.
    public var selectionAction: SelectionAction = .openDetail
    /// The prompts' history file `quarry` uses: `$XDG_STATE_HOME/quarry/history`, else
    /// `~/.local/state/quarry/history`; `nil` without a home directory.
    public static func defaultHistoryFile(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        PromptHistory.defaultFile(environment: environment)
    }
    /// More rows than any terminal shows: what `quarry` reads for the first screen.
    public static let previewRows = 300

    /// Creates a configuration.
    public init(storeTitle: String, entityName: String, sort: [SortKey], sectionKey: String? = nil, filter: String? = nil,
                isReadOnly: Bool = false, theme: Theme = .builtInDefault, startMessage: String? = nil) {
        self.storeTitle = storeTitle
        self.entityName = entityName
        self.sort = sort
        self.sectionKey = sectionKey
        self.filter = filter
        self.isReadOnly = isReadOnly
        self.theme = theme
        self.startMessage = startMessage
    }

    /// A sensible default order for `entity`, one the store answers from an index when it can
    /// (the first screen then reads only its rows, however big the table): the display key
    /// when an index leads with it, else the first attribute an index leads with (an indexed
    /// attribute, a declared index or a uniqueness constraint, which every store keeps as a
    /// unique index), else the display key, else the first stored attribute that sorts; none
    /// (object-ID order) for an entity whose attributes are all Binary or Transformable.
    public static func defaultSort(for entity: EntityDescription) -> [SortKey] {
        let stored = entity.attributes.filter { !$0.isTransient && $0.type != .binary && $0.type != .transformable }
        let leading = Set(entity.indexes.compactMap(\.attributes.first) + entity.uniquenessConstraints.compactMap(\.first))
        let indexed = stored.filter { $0.isIndexed || leading.contains($0.name) }
        let displayKey = ColumnSpec.displayKey(of: entity)
        if let displayKey, indexed.contains(where: { $0.name == displayKey }) { return [SortKey(displayKey)] }
        if let first = indexed.first { return [SortKey(first.name)] }
        if let displayKey { return [SortKey(displayKey)] }
        return stored.first.map { [SortKey($0.name)] } ?? []
    }
}
