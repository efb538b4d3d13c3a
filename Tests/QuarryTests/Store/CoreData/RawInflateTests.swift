import Foundation
import QuarryTestSupport
import Testing
@testable import Quarry

@Suite struct RawInflateTests {
    @Test func inflatesARawDeflateStreamToItsOriginalBytes() throws {
        let original = Data((0..<100_000).map { UInt8(truncatingIfNeeded: $0 * 7 % 251) })
        let inflated = try RawInflate.inflate(KeyedArchiveFixture.deflate(original))
        #expect(inflated == original)
    }

    @Test func aStreamCutShortIsReportedAsTruncated() {
        let compressed = KeyedArchiveFixture.deflate(Data(repeating: 0x41, count: 50_000) + Data("tail".utf8))
        let cut = compressed.prefix(compressed.count / 2)
        #expect(throws: CoreDataModelCacheError.truncatedDeflate(consumed: cut.count)) {
            try RawInflate.inflate(cut)
        }
    }

    @Test func emptyInputIsReportedAsTruncated() {
        #expect(throws: CoreDataModelCacheError.truncatedDeflate(consumed: 0)) { try RawInflate.inflate(Data()) }
    }

    @Test func garbageIsReportedAsCorruptWithZlibsReason() {
        // 0xFF: final block of the reserved type 3, which DEFLATE forbids.
        do {
            _ = try RawInflate.inflate(Data([0xFF, 0xFF, 0xFF, 0xFF]))
            Issue.record("garbage inflated")
        } catch {
            guard case .corruptDeflate(let reason) = error else { Issue.record("got \(error)"); return }
            #expect(reason.contains("block type"))
        }
    }

    @Test func anExpansionPastTheLimitIsRefused() {
        // 16 MiB of zeros compress to about 16 KiB: a small bomb against a 1 MiB bound.
        let bomb = KeyedArchiveFixture.deflate(Data(count: 16 << 20))
        #expect(bomb.count < 64 << 10)
        #expect(throws: CoreDataModelCacheError.inflatedTooLarge(limit: 1 << 20)) {
            try RawInflate.inflate(bomb, limit: 1 << 20)
        }
    }

    @Test func outputExactlyAtTheLimitIsAccepted() throws {
        let original = Data(repeating: 7, count: 200_000)
        #expect(try RawInflate.inflate(KeyedArchiveFixture.deflate(original), limit: 200_000) == original)
    }
}
