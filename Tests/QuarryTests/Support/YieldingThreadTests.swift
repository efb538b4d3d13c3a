import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import Quarry
import QuarryTestSupport

@Suite("A yielding thread runs its work below the caller's priority")
struct YieldingThreadTests {
    /// The calling thread's nice value.
    static func ownNice() -> Int32 {
        getpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0)
    }

    @Test("the work sees a nice value five levels up (at most 19); the caller's is unchanged")
    func workRunsNicer() async throws {
        let before = Self.ownNice()
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        YieldingThread.start(name: "Quarry.test yielding") {
            continuation.yield(Self.ownNice())
            continuation.finish()
        }
        let seen = try #require(try await nextElement(of: stream, awaiting: "the yielding thread's work"))
        #expect(seen == min(19, before + YieldingThread.niceLevels))
        #expect(Self.ownNice() == before)
    }
}
