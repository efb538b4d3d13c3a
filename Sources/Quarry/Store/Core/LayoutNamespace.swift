/// The names already used in one SQLite namespace (the tables and indexes of a file, or the
/// columns of one table), compared the way SQLite compares identifiers: ASCII letters
/// case-insensitively, every other character exactly.
///
/// ``StoreLayout`` names everything in two passes over one namespace: first every table,
/// column or index takes its natural name (entity, property, …) when that is free; only then
/// do the ones whose natural name was reserved or already taken get a fallback
/// (``claimFallback(_:)``). A fallback can so never take the natural name of something that
/// comes later: a model whose names never clashed gets exactly the names it always had.
struct LayoutNamespace {
    private var taken: Set<String> = []
    private let reservedPrefixes: [String]

    /// A namespace where `reserved` names and names starting with `reservedPrefixes` are never free.
    init(reserved: [String] = [], reservedPrefixes: [String] = []) {
        self.reservedPrefixes = reservedPrefixes.map(Self.fold)
        for name in reserved { taken.insert(Self.fold(name)) }
    }

    /// `name` as SQLite compares it: ASCII letters lowercased (SQLite folds no other letters).
    static func fold(_ name: String) -> String {
        String(decoding: name.utf8.map { (65...90).contains($0) ? $0 + 32 : $0 }, as: UTF8.self)
    }

    /// Whether `name` is neither reserved nor taken.
    func isFree(_ name: String) -> Bool {
        let folded = Self.fold(name)
        return !taken.contains(folded) && !reservedPrefixes.contains { folded.hasPrefix($0) }
    }

    /// Takes `name` if it is free; returns whether it did.
    mutating func claim(_ name: String) -> Bool {
        guard isFree(name) else { return false }
        taken.insert(Self.fold(name))
        return true
    }

    /// Takes and returns `base` if free, else the first free of `base_2`, `base_3`, …
    mutating func claimFallback(_ base: String) -> String {
        if claim(base) { return base }
        var n = 2
        while !claim("\(base)_\(n)") { n += 1 }
        return "\(base)_\(n)"
    }
}
