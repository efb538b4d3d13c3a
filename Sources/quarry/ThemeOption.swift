import ArgumentParser

/// `--theme NAME`, for the commands that open the browser (`browse`, `demo`): a theme name or
/// `.toml` file, resolved by ``BrowserLauncher/theme(named:environment:searchDirectories:)``.
struct ThemeOption: ParsableArguments {
    @Option(name: .long, help: "A theme name or .toml file (default: $QUARRY_THEME, else default).")
    var theme: String?
}
