import QuarryDemo
import Testing

@Suite("What demo --import-only prints per save")
struct DemoSaveTests {
    @Test("a save's line reads back as the same save; other lines are not saves")
    func lineRoundTrip() {
        let save = DemoSave(number: 12, inserted: 50, updated: 449, resolvedConflicts: 3)
        #expect(save.description == "save 12: 50 inserted, 449 updated, 3 conflicts resolved by policy")
        #expect(DemoSave(line: save.description) == save)
        var totals = DemoImporterTotals()
        #expect(DemoSave(line: totals.description) == nil)
        #expect(DemoSave(line: "save 12: 50 inserted") == nil)
        #expect(DemoSave(line: "save x: 50 inserted, 449 updated, 3 conflicts resolved by policy") == nil)
        totals.refusedForCollisions = 2
        #expect(totals.description == "imported 0 saves: 0 inserted, 0 updated, 0 conflicts resolved by policy, 2 saves retried after symbol collisions")
    }
}
