// Nothing to import: the module only provides `quarry_fuzz_main` to the linker.
