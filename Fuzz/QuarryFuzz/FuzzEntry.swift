import CFuzzMain
import Foundation

/// libFuzzer's entry point: one input per call (built with `-sanitize=fuzzer`, which links
/// libFuzzer's `main`; see scripts/fuzz.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    let target = FuzzTarget.selected
    guard !KnownCrashes.contains(data, for: target) else { return -1 }  // -1: not added to the corpus
    target.run(data)
    return 0
}
