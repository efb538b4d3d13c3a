import ArgumentParser

/// `--no-mouse`, for the commands that open the browser (`browse`, `demo`).
struct MouseOption: ParsableArguments {
    @Flag(name: .long, help: "Ignore the mouse (clicks, the wheel), so the terminal selects text as usual.")
    var noMouse = false
}
