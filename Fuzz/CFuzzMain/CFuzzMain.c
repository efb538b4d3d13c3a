// SwiftPM links an executable target's `main` as `<module>_main` (`--defsym main=quarry_fuzz_main`),
// so libFuzzer's own `main` is never used: this one starts libFuzzer's driver on the Swift
// entry point `LLVMFuzzerTestOneInput` (Fuzz/QuarryFuzz/FuzzEntry.swift).
#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
int LLVMFuzzerRunDriver(int *argc, char ***argv, int (*callback)(const uint8_t *data, size_t size));

int quarry_fuzz_main(int argc, char **argv) {
    return LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput);
}
