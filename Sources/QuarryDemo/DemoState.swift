import Foundation
import Quarry

/// The demo store's record of its seed and of the importers' symbol counter: one object of the
/// `DemoState` entity.
///
/// The seeder saves it (with `seeded` false) in the same transaction as the sectors, before
/// any ticker, and sets `seeded` once the last ticker and quote are stored; so a store whose
/// seed was interrupted (the process killed mid-seed) is told apart from a finished one.
/// Importers mint new symbols from `nextSymbol` and number their saves from `saves`, both
/// advanced in the same transaction as the tickers they insert.
public enum DemoState {
    /// The entity's name.
    public static let entityName = "DemoState"

    /// The entity's attribute names.
    public enum Key {
        /// How many tickers the seed was asked for.
        public static let seedRows = "seedRows"
        /// Whether the seed finished.
        public static let seeded = "seeded"
        /// The number of the next symbol an importer mints (see ``DemoModel/symbol(_:)``).
        public static let nextSymbol = "nextSymbol"
        /// How many importer saves reached the store.
        public static let saves = "saves"
    }

    /// What a demo store holds, as far as its seed goes.
    public enum Seed: Equatable, Sendable {
        /// No seed was started: no state record and no ticker.
        case absent
        /// The seed finished; the store holds `tickers` tickers now.
        case finished(tickers: Int)
        /// A seed of `target` tickers started and did not finish: `written` tickers are stored.
        case interrupted(written: Int, target: Int)
        /// Tickers without a state record: the store was not seeded by the demo.
        case unrecorded(tickers: Int)
    }

    /// Reads the seed state of the store behind `coordinator`.
    public static func seed(in coordinator: StoreCoordinator) throws -> Seed {
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: coordinator, name: "demo-state")
        return try context.performAndWait {
            let tickers = try context.count(ofEntity: "Ticker")
            guard let state = try context.objects(ofEntity: entityName).first else {
                return tickers == 0 ? .absent : .unrecorded(tickers: tickers)
            }
            if try state.value(forKey: Key.seeded) == .bool(true) { return .finished(tickers: tickers) }
            return .interrupted(written: tickers, target: Int(try integer(state, Key.seedRows)))
        }
    }

    /// The integer value of `key` on `state` (0 when null).
    static func integer(_ state: ManagedObject, _ key: String) throws -> Int64 {
        if case .integer(let n) = try state.value(forKey: key) { return n }
        return 0
    }
}
