import Foundation
import Quarry

/// The demo's stock-ticker model: `Sector` ↔ `Ticker` ↔ `Quote`, and the one `DemoState`
/// object that records the seed and the importers' symbol counter.
public enum DemoModel {
    /// The sectors a new demo store is seeded with.
    public static let sectorNames = [
        "Communication", "Consumer Discretionary", "Consumer Staples", "Energy", "Financials", "Health Care",
        "Industrials", "Information Technology", "Materials", "Real Estate", "Utilities",
    ]

    /// Builds the model.
    ///
    /// `Ticker.symbol` is unique, so two importers (two `quarry demo` processes) can never both
    /// store one symbol: the second save is refused whole and retried with a fresh counter.
    /// `Ticker.saveNumber` is the number of the importer save that inserted the ticker (0 for the
    /// seed), which lets `scripts/crash-test.sh` check that every save is whole or absent; its name
    /// sorts after `price` so the edit form's fields keep their order.
    public static func make() throws -> ManagedObjectModel {
        var b = ModelBuilder()
        b.entity("Sector") { e in
            e.attribute("name", .string, optional: false)
            e.toMany("tickers", destination: "Ticker", inverse: "sector", deleteRule: .cascade)
            e.unique("name")
        }
        b.entity("Ticker") { e in
            e.attribute("symbol", .string, optional: false, min: 1, max: 12)
            e.attribute("name", .string)
            e.attribute("price", .double, default: .double(0), min: 0)
            e.attribute("change", .double, default: .double(0))
            e.attribute("volume", .integer64, default: .integer(0), min: 0)
            e.attribute("updated", .date)
            e.attribute("saveNumber", .integer64, default: .integer(0), min: 0)
            e.toOne("sector", destination: "Sector", inverse: "tickers")
            e.toMany("quotes", destination: "Quote", inverse: "ticker", deleteRule: .cascade)
            e.unique("symbol")
        }
        b.entity("Quote") { e in
            e.attribute("price", .double, optional: false)
            e.attribute("time", .date, optional: false)
            e.toOne("ticker", destination: "Ticker", inverse: "quotes")
        }
        b.entity(DemoState.entityName) { e in
            e.attribute(DemoState.Key.seedRows, .integer64, optional: false, min: 0)
            e.attribute(DemoState.Key.seeded, .boolean, default: .bool(false))
            e.attribute(DemoState.Key.nextSymbol, .integer64, default: .integer(0), min: 0)
            e.attribute(DemoState.Key.saves, .integer64, default: .integer(0), min: 0)
        }
        return try b.build()
    }

    /// A unique ticker-like symbol for number `n` (`A`, `B`, …, `Z`, `AA`, …): bijective base 26.
    public static func symbol(_ n: Int) -> String {
        // Letters from the last, written back to front into a buffer: one string made once
        // (the seed makes 100,000 of them).
        precondition(n >= 0, "a symbol number is never negative")
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 16) { buffer in
            var n = n
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(65 + n % 26)
                n = n / 26 - 1
            } while n >= 0
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[start...]), as: UTF8.self)
        }
    }
}
