import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// `_Metadata.json` keys of the application's own are kept and written back by every save
/// (issue 34, item 15: any such key refused the whole store; M3CoreData's store metadata holds
/// an application's keys beside the store's).
@Suite("JSON store: the application's own metadata keys")
struct JSONStoreApplicationMetadataTests {
    @Test("a store whose _Metadata.json holds keys of the application opens, and a save keeps them as written")
    func applicationKeysRoundTrip() throws {
        let directory = TemporaryDirectory()
        let url = directory.file("Tickers.jsonstore")
        do {
            let store = try JSONStore(url: url, model: TestModels.tickers())
            try JSONStoreTesting.populateTickers(ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store)))
        }
        let metadataURL = url.appendingPathComponent("_Metadata.json")
        var text = try String(contentsOf: metadataURL, encoding: .utf8)
        text = text.replacingOccurrences(of: "\"keyCounters\":", with: "\"AppSyncAnchor\": {\"server\": \"s1\", \"seq\": [1, 2]},\n  \"NSStoreModelVersionIdentifiers\": [\"v2\"],\n  \"keyCounters\":")
        try Data(text.utf8).write(to: metadataURL)

        let store = try JSONStore(url: url, model: nil)
        #expect(store.applicationMetadata["AppSyncAnchor"] == #"{"server": "s1", "seq": [1, 2]}"#)
        #expect(store.applicationMetadata["NSStoreModelVersionIdentifiers"] == #"["v2"]"#)
        let context = ObjectContext(concurrencyType: .privateQueue, coordinator: StoreCoordinator(store: store))
        try context.performAndWait {
            let sector = try context.insertObject(entityName: "Sector")
            try sector.setValue(.string("Utilities"), forKey: "name")
            try context.save()
        }
        let saved = try String(contentsOf: metadataURL, encoding: .utf8)
        #expect(saved.contains(#""AppSyncAnchor": {"server": "s1", "seq": [1, 2]},"#), "\(saved)")
        #expect(saved.contains(#""NSStoreModelVersionIdentifiers": ["v2"],"#))
        let reopened = try JSONStore(url: url, model: nil)
        #expect(reopened.applicationMetadata == store.applicationMetadata)
    }
}
