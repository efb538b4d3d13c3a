import Testing
@testable import Quarry

/// Columns are matched by name against what the table really has, in Core Data's spellings.
@Suite struct CoreDataStoreColumnMatcherTests {
    static func matcher(_ names: [String]) -> CoreDataStoreColumnMatcher {
        CoreDataStoreColumnMatcher(columns: names.map { CoreDataStoreSchema.Column(name: $0, type: "VARCHAR") })
    }

    @Test func valueColumnsArePlainThenSuffixNumberedThenPrefixNumberedAndNeverAnotherPropertysOwn() {
        let m = Self.matcher(["ZTOYBOX", "Z3TOY", "ZTOY2", "ZTOY", "ZTOY1", "ZNAME"])
        #expect(m.valueCandidates("toy", excluded: []).map(\.name) == ["ZTOY", "ZTOY1", "ZTOY2", "Z3TOY"])
        // A property named `toy1` owns ZTOY1: it is no variant of `toy`.
        #expect(m.valueCandidates("toy", excluded: ["ZTOY1"]).map(\.name) == ["ZTOY", "ZTOY2", "Z3TOY"])
        #expect(m.valueCandidates("Toy", excluded: []).first?.name == "ZTOY")
    }

    @Test func entityColumnsAreNumberPrefixedWithAnUnderscoreThenWithout() {
        let m = Self.matcher(["ZACCOUNT", "Z9_ACCOUNT1", "Z9_ACCOUNT", "Z9ACCOUNT", "Z9_ACCOUNTS"])
        #expect(m.entityCandidates("account", excluded: []).map(\.name) == ["Z9_ACCOUNT", "Z9_ACCOUNT1", "Z9ACCOUNT"])
        #expect(m.entityCandidates("account", excluded: ["Z9ACCOUNT"]).map(\.name) == ["Z9_ACCOUNT", "Z9_ACCOUNT1"])
    }

    @Test func orderColumnsAreFOKOfTheInverse() {
        let m = Self.matcher(["Z_FOK_OWNER", "Z_FOK_OWNERS", "ZOWNER"])
        #expect(m.orderCandidates("owner").map(\.name) == ["Z_FOK_OWNER"])
    }
}
