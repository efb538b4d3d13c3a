import Foundation
import Quarry

/// Models shared by the test suites, built with ``ModelBuilder``.
public enum TestModels {
    /// The stock-ticker model used across the tests:
    ///
    /// - `Sector` (name, unique) ↔ `Ticker.sector` (to-many, cascade)
    /// - `Ticker` (symbol, name, price, volume, active, listed, …) ↔ `Quote.ticker` (to-many, cascade)
    /// - `Ticker.tags` ↔ `Tag.tickers` (many-to-many)
    /// - `Portfolio.holdings` (ordered to-many, no inverse) and `Portfolio.owner` (to-one, deny from `Person`)
    /// - `Asset` (abstract) → `Stock`, `Bond` (inheritance)
    public static func tickerDefinition() -> ModelDefinition {
        var b = ModelBuilder()
        b.entity("Sector") { e in
            e.attribute("name", .string, optional: false)
            e.toMany("tickers", destination: "Ticker", inverse: "sector", deleteRule: .cascade)
            e.unique("name")
        }
        b.entity("Ticker") { e in
            e.attribute("symbol", .string, optional: false, min: 1, max: 8, regex: "[A-Z][A-Z0-9.]*", indexed: true)
            e.attribute("name", .string)
            e.attribute("price", .double, default: .double(0), min: 0)
            e.attribute("volume", .integer64, default: .integer(0))
            e.attribute("active", .boolean, default: .bool(true))
            e.attribute("listed", .date)
            e.attribute("note", .string, transient: true)
            e.toOne("sector", destination: "Sector", inverse: "tickers")
            e.toMany("quotes", destination: "Quote", inverse: "ticker", deleteRule: .cascade)
            e.toMany("tags", destination: "Tag", inverse: "tickers")
        }
        b.entity("Quote") { e in
            e.attribute("price", .double, optional: false)
            e.attribute("time", .date, optional: false)
            e.toOne("ticker", destination: "Ticker", inverse: "quotes")
        }
        b.entity("Tag") { e in
            e.attribute("label", .string, optional: false)
            e.toMany("tickers", destination: "Ticker", inverse: "tags")
        }
        b.entity("Person") { e in
            e.attribute("name", .string, optional: false)
            e.toMany("portfolios", destination: "Portfolio", inverse: "owner", deleteRule: .deny)
        }
        b.entity("Portfolio") { e in
            e.attribute("title", .string)
            e.toOne("owner", destination: "Person", inverse: "portfolios")
            e.toMany("holdings", destination: "Ticker", ordered: true)
        }
        b.entity("Asset", abstract: true) { e in
            e.attribute("code", .string, optional: false)
            e.attribute("value", .decimal)
        }
        b.entity("Stock", parent: "Asset") { e in
            e.attribute("exchange", .string)
        }
        b.entity("Bond", parent: "Asset") { e in
            e.attribute("maturity", .date)
            e.attribute("coupon", .double)
        }
        return b.definition
    }

    /// The stock-ticker model, resolved.
    public static func tickers() -> ManagedObjectModel {
        try! ManagedObjectModel(tickerDefinition())
    }
}

/// A fresh temporary directory, removed when the value is deinitialised.
public final class TemporaryDirectory: @unchecked Sendable {
    // Immutable after init; safe to share.
    /// The directory's URL.
    public let url: URL

    /// Creates a new empty directory under the system's temporary folder.
    public init() {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("quarry-test-\(UUID().uuidString)")
        try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// A file URL inside the directory.
    public func file(_ name: String) -> URL { url.appendingPathComponent(name) }

    deinit { try? FileManager.default.removeItem(at: url) }
}
