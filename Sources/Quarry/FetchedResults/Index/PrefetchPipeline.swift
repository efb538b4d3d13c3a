import CPrefetch

/// Memory prefetch hints: each asks the CPU to start loading a cache line and returns at
/// once (never a fault, whatever the address).
enum Prefetch {
    /// Starts loading the line holding `address`, for reading.
    @inline(__always)
    static func read(_ address: UnsafeRawPointer) { quarry_prefetch(address) }

    /// Starts loading the line holding `address`, for writing.
    @inline(__always)
    static func write(_ address: UnsafeRawPointer) { quarry_prefetch_write(address) }

    /// Starts loading the lines of `bytes` bytes from `start`, for reading.
    @inline(__always)
    static func lines(_ start: UnsafeRawPointer, bytes: Int) {
        var line = 0
        while line < bytes {
            quarry_prefetch(start + line)
            line += 64
        }
    }
}

/// A loop whose items each wait on memory scattered over a large structure (a chunk record,
/// then a block, then a slot), run so that those waits overlap.
///
/// Each *stage* starts loading what a later stage or the body reads, `leads[stage]` items
/// ahead of the body: stage `s` of item `i` runs just before the body of item
/// `i - leads[s]`. With leads such as `[32, 16, 8]`, a dozen loads are in flight at any time
/// instead of each item waiting on its own; a stage may use what an earlier stage (a larger
/// lead) started loading, since that has had time to arrive. On the change benchmark
/// (`quarry-bench frc-update`: 1,000 changes in 1,000,000 results) this is what keeps an
/// edit at a fraction of a microsecond per change.
struct PrefetchPipeline {
    /// Each stage's lead, in items, largest first.
    let leads: [Int]

    /// A pipeline whose stages run `leads` items ahead of the body.
    init(leads: [Int]) {
        assert(leads == leads.sorted(by: >), "leads must decrease")
        self.leads = leads
    }

    /// Runs `stage(s, i)` and `body(i)` for each item `i` of `0..<count` in that interleaving.
    @inline(__always)
    func run(count: Int, stage: (_ stage: Int, _ item: Int) -> Void, body: (_ item: Int) throws -> Void) rethrows {
        for (s, lead) in leads.enumerated() {
            for i in 0..<min(lead, count) { stage(s, i) }
        }
        for i in 0..<count {
            for (s, lead) in leads.enumerated() where lead > 0 && i + lead < count { stage(s, i + lead) }
            for (s, lead) in leads.enumerated() where lead == 0 { stage(s, i) }
            try body(i)
        }
    }
}
