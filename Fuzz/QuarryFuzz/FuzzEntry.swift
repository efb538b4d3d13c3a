import CFuzzMain
import Foundation

/// libFuzzer's entry point: one input per call (built with `-sanitize=fuzzer`, which links
/// libFuzzer's `main`; see scripts/fuzz.sh).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> Int32 {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    FuzzTarget.selected.run(data)
    return 0
}
