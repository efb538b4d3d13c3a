import ArgumentParser

/// `--force`, shared by the commands that write a file: without it an existing file is never
/// replaced (``OutputTarget``).
struct ForceOption: ParsableArguments {
    @Flag(name: .long, help: "Replace an existing output file (without it an existing file is refused and left as it is).")
    var force = false
}
