/// One importer save that reached the store, as ``DemoImporter`` reports it.
public struct DemoSave: Sendable, Equatable, CustomStringConvertible {
    /// The save's number: the store-wide count of importer saves, this one included.
    public var number: Int
    /// New tickers the save inserted.
    public var inserted: Int
    /// Existing tickers the save updated.
    public var updated: Int
    /// Tickers another writer had changed since this importer read them: optimistic-locking
    /// conflicts, each resolved by the importer context's merge policy (its changed properties
    /// win, the other writer's changes to the rest are kept).
    public var resolvedConflicts: Int

    /// Creates a report of one save.
    public init(number: Int, inserted: Int, updated: Int, resolvedConflicts: Int) {
        self.number = number
        self.inserted = inserted
        self.updated = updated
        self.resolvedConflicts = resolvedConflicts
    }

    /// "save 12: 50 inserted, 449 updated, 3 conflicts resolved by policy", the line
    /// `quarry demo --import-only` prints for each save.
    public var description: String {
        "save \(number): \(inserted) inserted, \(updated) updated, \(resolvedConflicts) conflicts resolved by policy"
    }

    /// Parses a line ``description`` printed; `nil` for any other line.
    public init?(line: String) {
        let words = line.split(whereSeparator: { $0 == " " || $0 == ":" || $0 == "," }).map(String.init)
        guard words.count == 11, words[0] == "save", words[3] == "inserted", words[5] == "updated",
              words[7...] == ["conflicts", "resolved", "by", "policy"],
              let number = Int(words[1]), let inserted = Int(words[2]), let updated = Int(words[4]),
              let conflicts = Int(words[6]) else { return nil }
        self.init(number: number, inserted: inserted, updated: updated, resolvedConflicts: conflicts)
    }
}
