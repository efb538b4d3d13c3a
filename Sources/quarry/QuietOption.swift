import ArgumentParser

/// `--quiet`, shared by the commands that show their progress (``ProgressReporter``).
struct QuietOption: ParsableArguments {
    @Flag(name: .long, help: "Show no progress on standard error (errors are still printed).")
    var quiet = false
}
