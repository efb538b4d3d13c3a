import Foundation
import Testing
@testable import Quarry
import QuarryDemo
import QuarryTestSupport

/// ``CacheWriter``: a cache file written as it is encoded, 256 KiB at a time, reads back
/// whole, with the checksum the whole-file function computes, and leaves no temporary file.
@Suite("Fetched-results cache: streamed writing")
struct ResultsCacheWriterTests {
    /// An index of `n` results sorted by a string and an integer key: several megabytes of cache.
    func index(_ n: Int) -> SortedResults {
        // Sorted as the index expects: by symbol (ASCII, so `<` is byte order), n, then key.
        typealias Row = (symbol: String, n: Int64, pk: Int64)
        var rows: [Row] = []
        for i in 0..<n { rows.append(("symbol-" + String(i * 7919 % n, radix: 36), Int64(i % 97), Int64(i + 1))) }
        rows.sort { a, b in (a.symbol, a.n, a.pk) < (b.symbol, b.n, b.pk) }
        let entries = rows.map { row in
            SortedResults.Entry(id: ObjectID(entityIndex: 0, primaryKey: row.pk), keys: [.string(row.symbol), .integer(row.n)])
        }
        return SortedResults(sortKeys: [SortKey("symbol"), SortKey("n")], entries: entries)
    }

    @Test("a cache of several megabytes reads back equal, its checksum is the whole file's, and no temporary file is left")
    func largeCacheRoundTrips() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appendingPathComponent("big.frccache")
        let results = index(150_000)
        let contents = ResultsCache.Contents(fingerprint: "f", token: "t", results: results, sectionStarts: [0, 70_000], sectionNames: ["a", "b"])
        try ResultsCache.write(contents, to: url)

        let bytes = try [UInt8](Data(contentsOf: url))
        #expect(bytes.count > 3 << 20, "more than three flushes")
        let stored = bytes[(bytes.count - 8)...].withUnsafeBytes { $0.loadUnaligned(as: UInt64.self) }
        #expect(UInt64(littleEndian: stored) == ResultsCache.checksum(bytes[..<(bytes.count - 8)]))
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["big.frccache"])

        let read = try #require(ResultsCache.read(from: url, fingerprint: "f", token: "t", sortKeys: results.sortKeys))
        #expect(read.sectionStarts == [0, 70_000] && read.sectionNames == ["a", "b"])
        let (a, b) = (read.results.flattened(), results.flattened())
        #expect(a.pks == b.pks && a.entities == b.entities)
        #expect(a.columns.count == 2)
        for k in 0..<2 {
            #expect((0..<b.pks.count).allSatisfy { a.columns[k].value(at: $0) == b.columns[k].value(at: $0) })
        }
        // Rewriting replaces the file whole.
        try ResultsCache.write(.init(fingerprint: "f", token: "u", results: index(10), sectionStarts: [], sectionNames: []), to: url)
        #expect(ResultsCache.read(from: url, fingerprint: "f", token: "t", sortKeys: results.sortKeys) == nil)
        #expect(ResultsCache.read(from: url, fingerprint: "f", token: "u", sortKeys: results.sortKeys)?.results.count == 10)
    }

    @Test("every kind of key column, nils, long strings, mixed kinds and several entities read back equal")
    func everyKindRoundTrips() throws {
        let directory = TemporaryDirectory()
        let url = directory.url.appendingPathComponent("kinds.frccache")
        let keys = ["flag", "when", "x", "name", "other", "n"].map { SortKey($0) }
        var rng = SplitMix64(seed: 3)
        let names: [Value] = [.null, .string("A"), .string("AAPL"), .string("a name longer than seven bytes"), .string("ch\u{E9}"), .string("")]
        let others: [Value] = [.null, .decimal(Decimal(string: "1.25")!), .uuid(UUID(uuidString: "00000000-0000-0000-0000-000000000001")!), .integer(4), .string("x")]
        var entries: [SortedResults.Entry] = []
        for i in 0..<500 {
            let flag: Value = rng.below(5) == 0 ? .null : .bool(rng.below(2) == 0)
            let when: Value = .date(Date(timeIntervalSinceReferenceDate: Double(rng.below(50))))
            let x: Value = rng.below(7) == 0 ? .null : .double(Double(rng.below(100)) / 4)
            let n: Value = i < 250 ? .null : .integer(Int64(rng.below(10)))
            let id = ObjectID(entityIndex: i % 3, primaryKey: Int64(i + 1))
            entries.append(SortedResults.Entry(id: id, keys: [flag, when, x, names[rng.below(names.count)], others[rng.below(others.count)], n]))
        }
        let results = SortedResults(sortKeys: keys)
        results.apply(dropping: Set<Int>(), adding: entries)
        try ResultsCache.write(.init(fingerprint: "f", token: "t", results: results, sectionStarts: [0], sectionNames: [""]), to: url)
        let read = try #require(ResultsCache.read(from: url, fingerprint: "f", token: "t", sortKeys: keys)).results
        #expect(read.count == results.count && read.invariantViolation() == nil)
        #expect(read.allIDs == results.allIDs)
        #expect((0..<results.count).allSatisfy { read.keys(at: $0) == results.keys(at: $0) })
    }

    @Test("the running checksum over words in parts and a tail equals the whole-buffer checksum", arguments: [0, 1, 7, 8, 9, 63, 64, 1000])
    func runningChecksumMatches(length: Int) {
        var rng = SystemRandomNumberGenerator()
        let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &rng) }
        bytes.withUnsafeBytes { raw in
            var running = RunningChecksum()
            let whole = length / 8 * 8
            var start = 0
            while start < whole {
                let end = min(whole, start + 8 * Int.random(in: 1...4, using: &rng))
                running.addWords(UnsafeRawBufferPointer(rebasing: raw[start..<end]))
                start = end
            }
            #expect(running.finish(tail: UnsafeRawBufferPointer(rebasing: raw[whole...])) == ResultsCache.checksum(raw))
        }
    }

    @Test("a cache that cannot be written throws and leaves neither the file nor a temporary one")
    func unwritableDirectory() throws {
        let directory = TemporaryDirectory()
        let blocked = directory.url.appendingPathComponent("blocked")
        try Data().write(to: blocked)  // a file where the cache directory should be
        let url = blocked.appendingPathComponent("x.frccache")
        #expect(throws: (any Error).self) {
            try ResultsCache.write(.init(fingerprint: "f", token: "t", results: index(10), sectionStarts: [], sectionNames: []), to: url)
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.url.path) == ["blocked"])
    }
}
