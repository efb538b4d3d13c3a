import Foundation
import Quarry

/// The entity picker (`Tab`): the text typed to narrow it and each entity's row count, counted
/// off the main queue when the picker opens (the list shows at once, the counts as they land).
struct EntityPickerState {
    /// What was typed: entities whose name contains it (any case) are listed, those starting
    /// with it first.
    var query = ""
    /// Row counts by entity name (`nil`: the count failed).
    var counts: [String: Int?] = [:]
    /// Which opening of the picker the counts under way are for (a count from an earlier
    /// opening is dropped).
    var opening = 0
    /// Whether counts are under way.
    var isCounting = false
    /// Tests waiting for the counts.
    let waiters = SettleWaiters()

    /// `names` narrowed to ``query``: names starting with it first, then names containing it,
    /// each in the given order.
    func narrowed(_ names: [String]) -> [String] {
        guard !query.isEmpty else { return names }
        let wanted = query.lowercased()
        let starting = names.filter { $0.lowercased().hasPrefix(wanted) }
        let containing = names.filter { !$0.lowercased().hasPrefix(wanted) && $0.lowercased().contains(wanted) }
        return starting + containing
    }

    /// `count` with a comma every three digits, whatever the locale (`1,000,000`).
    static func grouped(_ count: Int) -> String {
        var digits = String(count.magnitude)
        var groups: [Substring] = []
        while digits.count > 3 {
            groups.insert(digits.suffix(3), at: 0)
            digits.removeLast(3)
        }
        groups.insert(Substring(digits), at: 0)
        return (count < 0 ? "-" : "") + groups.joined(separator: ",")
    }

    /// The row count of `name` as the picker shows it (`1,000,000 rows`).
    func countText(of name: String) -> String {
        guard let known = counts[name] else { return isCounting ? "…" : "" }
        guard let count = known else { return "? rows" }
        return Self.grouped(count) + (count == 1 ? " row" : " rows")
    }
}

extension Browser {
    /// `Tab`: the entity picker, narrowed as you type, with each entity's row count: the list
    /// at once, the counts read off the main queue (one `count` a store query each, through
    /// the writer coordinator's store) and shown as they land.
    func openEntityPicker() {
        entityPicker.query = ""
        entityPicker.counts = [:]
        entityPicker.opening += 1
        entityPicker.isCounting = true
        overlay = .picker(selected: pickerNames.firstIndex(of: table.entity.name) ?? 0)
        let opening = entityPicker.opening
        let store = stack.writerCoordinator.store
        let entities = entityNames.compactMap { stack.model.entity(named: $0) }
        DispatchQueue.global(qos: .userInitiated).async { [weak self] in
            var counts: [String: Int?] = [:]
            for entity in entities {
                do {
                    counts[entity.name] = try store.count(for: StoreQuery(entity: entity))
                } catch {
                    counts[entity.name] = .some(nil)  // shown as "? rows"
                }
            }
            DispatchQueue.main.async {
                MainActor.assumeIsolated {
                    guard let self, self.entityPicker.opening == opening else { return }
                    self.entityPicker.counts = counts
                    self.entityPicker.isCounting = false
                    self.entityPicker.waiters.resumeAll()
                    self.needsDisplay()
                }
            }
        }
    }

    /// Waits until the entity picker's counts landed (tests).
    public func entityCountsSettled() async {
        while entityPicker.isCounting {
            await entityPicker.waiters.wait()
        }
    }

    /// The entities the picker lists now (narrowed by what was typed).
    var pickerNames: [String] { entityPicker.narrowed(entityNames) }
}
