import Foundation
import Quarry

/// The entity picker (`Tab`): the text typed to narrow it and each entity's row count, counted
/// when the picker opens.
struct EntityPickerState {
    /// What was typed: entities whose name contains it (any case) are listed, those starting
    /// with it first.
    var query = ""
    /// Row counts by entity name (`nil`: the count failed).
    var counts: [String: Int?] = [:]

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
        guard let known = counts[name] else { return "" }
        guard let count = known else { return "? rows" }
        return Self.grouped(count) + (count == 1 ? " row" : " rows")
    }
}

extension Browser {
    /// `Tab`: the entity picker, narrowed as you type, with each entity's row count.
    func openEntityPicker() {
        entityPicker.query = ""
        var counts: [String: Int?] = [:]
        for name in entityNames {
            do {
                counts[name] = try stack.mainContext.count(for: FetchRequest(entityName: name))
            } catch {
                counts[name] = .some(nil)  // shown as "? rows"; the picker still opens
            }
        }
        entityPicker.counts = counts
        overlay = .picker(selected: pickerNames.firstIndex(of: table.entity.name) ?? 0)
    }

    /// The entities the picker lists now (narrowed by what was typed).
    var pickerNames: [String] { entityPicker.narrowed(entityNames) }
}
