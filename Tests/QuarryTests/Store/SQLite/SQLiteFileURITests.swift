import Foundation
@testable import Quarry
import Testing

/// `SQLiteStore.fileURI` escapes exactly what Foundation's `urlPathAllowed` escapes (with `?`,
/// `#` and `%` escaped too), byte for byte, so the URIs SQLite opens are the same as before it
/// stopped using Foundation's character sets.
@Suite struct SQLiteFileURITests {
    @Test(arguments: [
        "/tmp/store.sqlite", "/tmp/a b/c d.sqlite", "/tmp/what?.sqlite", "/tmp/#1.sqlite", "/tmp/100%.sqlite",
        "/tmp/ünïcødé/日本語.sqlite", "/tmp/emoji 🧱.sqlite", "/tmp/-._~!$&'()*+,;=:@.sqlite", "relative/path.sqlite",
        "/tmp/quote\"back\\slash<>[]{}|^`.sqlite", "/tmp/tab\there\nnewline",
    ])
    func escapesLikeFoundation(path: String) {
        var allowed = CharacterSet.urlPathAllowed
        allowed.remove(charactersIn: "?#%")
        let foundation = "file:" + path.addingPercentEncoding(withAllowedCharacters: allowed)!
        #expect(SQLiteStore.fileURI(path) == foundation)
    }
}
