#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

extension SortedResults {
    /// Where chunk blocks (``ResultsBlock``) live: large regions of address space carved into
    /// blocks, each 2 MiB of them turned into a transparent huge page once blocks fill it,
    /// freed blocks kept on one list per size.
    ///
    /// A controller's index is tens of megabytes of small blocks, and a change event reads
    /// a few of them at random. In 4 KiB pages each such read is also a page-table walk; in
    /// 2 MiB pages the whole index fits the TLB. Only full 2 MiB stretches become huge pages
    /// (`MADV_COLLAPSE`, Linux 6.1 and later): marking whole regions for huge pages up front
    /// made the kernel commit 2 MiB at the first write of the stretch the bump pointer is in,
    /// on average a megabyte of the index's memory never used (`browse-resident` in
    /// BENCHMARKS.md). Where the kernel gives no huge pages (older kernels,
    /// `/sys/kernel/mm/transparent_hugepage/enabled` set to `never`) the blocks stay in plain
    /// pages and everything works the same, only slower.
    ///
    /// Regions are reserved 64 MiB of address space at a time; the kernel commits memory only
    /// as blocks are first written. A freed block is reused by the next block of its size
    /// (sizes are rounded up to 64 bytes); regions are not returned to the system.
    /// Thread-safe: one lock around the lists and the bump pointer.
    final class BlockArena: Sendable {
        /// The arena every index allocates from.
        static let shared = BlockArena()

        private static let regionBytes = 64 << 20
        private static let hugePage = 2 << 20
        private static let granule = 64

        private struct State: ~Copyable {
            /// The next unused byte of the current region, and its end (as addresses).
            var next = 0, end = 0
            /// Below this address, the current region's full 2 MiB stretches have been made
            /// huge pages.
            var collapsedUpTo = 0
            /// By size in granules: the first free block (its first word links the next).
            var free: [UInt] = []
        }

        private let state = Mutex(State())

        /// `bytes` bytes aligned to 64 (uninitialised).
        func allocate(bytes: Int) -> UnsafeMutableRawPointer {
            let granules = (bytes + Self.granule - 1) / Self.granule
            let address = state.withLock { state -> UInt in
                if granules < state.free.count, state.free[granules] != 0 {
                    let head = state.free[granules]
                    state.free[granules] = UnsafeRawPointer(bitPattern: head)!.load(as: UInt.self)
                    return head
                }
                let size = granules * Self.granule
                if state.next + size > state.end {
                    guard let (start, end) = Self.reserveRegion(atLeast: size) else { return 0 }
                    (state.next, state.end, state.collapsedUpTo) = (start, end, start)
                }
                let address = state.next
                state.next += size
                Self.collapseFullHugePages(&state)
                return UInt(address)
            }
            // No address space left for a region: like any failed allocation, fatal.
            guard let pointer = UnsafeMutableRawPointer(bitPattern: address) else {
                fatalError("out of memory: cannot reserve \(Self.regionBytes >> 20) MiB for the results index")
            }
            return pointer
        }

        /// Returns a block of `bytes` bytes from ``allocate(bytes:)`` for reuse.
        func deallocate(_ pointer: UnsafeMutableRawPointer, bytes: Int) {
            let granules = (bytes + Self.granule - 1) / Self.granule
            state.withLock { state in
                if state.free.count <= granules { state.free += [UInt](repeating: 0, count: granules + 1 - state.free.count) }
                pointer.storeBytes(of: state.free[granules], as: UInt.self)
                state.free[granules] = UInt(bitPattern: pointer)
            }
        }

        /// Whether index memory asks for huge pages: yes unless the environment sets
        /// `QUARRY_INDEX_HUGE_PAGES=0` (how `quarry-bench frc-fetch` and `frc-update` are
        /// measured both ways).
        static let hugePagesEnabled: Bool = {
            guard let value = getenv("QUARRY_INDEX_HUGE_PAGES") else { return true }
            return String(cString: value) != "0"
        }()

        /// Makes the current region's 2 MiB stretches that blocks now fill huge pages (the
        /// first block of the next stretch, handed out but not yet written, may reach into the
        /// last one: it is committed a moment early). A kernel that cannot leaves them as they are.
        private static func collapseFullHugePages(_ state: inout State) {
            let full = state.next / hugePage * hugePage
            guard full > state.collapsedUpTo else { return }
            #if canImport(Glibc)
            if hugePagesEnabled {
                _ = madvise(UnsafeMutableRawPointer(bitPattern: state.collapsedUpTo), full - state.collapsedUpTo, madviseCollapse)
            }
            #endif
            state.collapsedUpTo = full
        }

        /// `MADV_COLLAPSE` (Linux 6.1; not in every C library's headers yet).
        private static let madviseCollapse: Int32 = 25

        /// Asks for huge pages for the whole huge pages inside `bytes` bytes from `start`
        /// (memory not yet written: the pages already there stay as they are).
        static func adviseHugePages(_ start: UnsafeMutableRawPointer, bytes: Int) {
            #if canImport(Glibc)
            guard hugePagesEnabled else { return }
            let base = Int(bitPattern: start)
            let first = (base + hugePage - 1) / hugePage * hugePage, last = (base + bytes) / hugePage * hugePage
            guard last > first else { return }
            _ = madvise(UnsafeMutableRawPointer(bitPattern: first), last - first, Int32(MADV_HUGEPAGE))
            #endif
        }

        /// Maps a region of at least `size` bytes, aligned to a huge page; `nil` when the
        /// system refuses.
        private static func reserveRegion(atLeast size: Int) -> (Int, Int)? {
            let length = max(regionBytes, (size + hugePage - 1) / hugePage * hugePage) + hugePage
            let mapped = mmap(nil, length, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0)
            guard let mapped, mapped != MAP_FAILED else { return nil }
            let base = Int(bitPattern: mapped)
            let start = (base + hugePage - 1) / hugePage * hugePage
            return (start, base + length)
        }
    }
}
