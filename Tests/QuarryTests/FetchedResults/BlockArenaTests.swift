import Testing
@testable import Quarry

@Suite("Block arena")
struct BlockArenaTests {
    typealias Arena = SortedResults.BlockArena

    @Test("blocks are aligned, disjoint, and a freed block is reused by the next of its size")
    func reuse() {
        let arena = Arena()
        let sizes = [64, 100, 1_700, 20_000, 64, 3 << 20]
        let blocks = sizes.map { arena.allocate(bytes: $0) }
        for (b, size) in zip(blocks, sizes) {
            #expect(Int(bitPattern: b) % 64 == 0)
            b.initializeMemory(as: UInt8.self, repeating: UInt8(size & 0xFF), count: size)
        }
        // Each block still holds what was written into it: none overlaps another.
        for (b, size) in zip(blocks, sizes) {
            let bytes = UnsafeBufferPointer(start: b.assumingMemoryBound(to: UInt8.self), count: size)
            #expect(bytes.allSatisfy { $0 == UInt8(size & 0xFF) })
        }
        arena.deallocate(blocks[2], bytes: 1_700)
        #expect(arena.allocate(bytes: 1_690) == blocks[2])     // same size class (27 × 64 bytes)
        #expect(arena.allocate(bytes: 1_700) != blocks[2])
    }

    @Test("blocks keep what was written into them as the stretches they fill become huge pages")
    func contentsSurviveHugePages() {
        let arena = Arena()
        // 6 MiB of 1 KiB blocks: the first stretches fill (and are made huge pages) while
        // later blocks are written.
        let blocks = (0..<6_144).map { i -> UnsafeMutableRawPointer in
            let b = arena.allocate(bytes: 1_024)
            b.initializeMemory(as: Int.self, repeating: i, count: 128)
            return b
        }
        for (i, b) in blocks.enumerated() {
            #expect(UnsafeBufferPointer(start: b.assumingMemoryBound(to: Int.self), count: 128).allSatisfy { $0 == i }, "block \(i)")
        }
    }

    @Test("threads allocating at once get disjoint blocks")
    func concurrent() async {
        let arena = Arena()
        let addresses = await withTaskGroup(of: [Int].self) { group in
            for t in 0..<4 {
                group.addTask {
                    var mine: [Int] = []
                    for i in 0..<2_000 {
                        let p = arena.allocate(bytes: 128)
                        p.storeBytes(of: t * 10_000 + i, as: Int.self)
                        mine.append(Int(bitPattern: p))
                        if i % 3 == 0 { arena.deallocate(p, bytes: 128); mine.removeLast() }
                    }
                    return mine
                }
            }
            var all: [Int] = []
            for await part in group { all += part }
            return all
        }
        #expect(Set(addresses).count == addresses.count)
    }
}
