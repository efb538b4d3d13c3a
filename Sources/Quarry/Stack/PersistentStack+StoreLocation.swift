import Foundation

extension PersistentStack {
    /// `$XDG_DATA_HOME/quarry/<name>.sqlite` (`~/.local/share/quarry/<name>.sqlite` when unset).
    public static func defaultStoreURL(name: String) -> URL {
        defaultStoreURL(name: name, type: .sqlite)
    }

    /// The default location of a store of `type`: `$XDG_DATA_HOME/quarry/<name>.sqlite`, or
    /// `<name>.jsonstore` (a folder) for the JSON store (`~/.local/share` when `XDG_DATA_HOME` is unset).
    public static func defaultStoreURL(name: String, type: StoreType) -> URL {
        defaultStoreURL(name: name, type: type, environment: ProcessInfo.processInfo.environment)
    }

    /// ``defaultStoreURL(name:type:)`` with `XDG_DATA_HOME` read from `environment` instead of
    /// the process's (so tests need not change the process-wide environment).
    static func defaultStoreURL(name: String, type: StoreType, environment: [String: String]) -> URL {
        let base = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
            ?? FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/share")
        return base.appendingPathComponent("quarry").appendingPathComponent("\(name).\(type == .json ? "jsonstore" : "sqlite")")
    }

    /// The name a store takes by default (``Options/storeName``): the executable's.
    static let executableName = executableName(processName: ProcessInfo.processInfo.processName,
                                               arguments: CommandLine.arguments)

    /// The executable's name from the process's name, else the last path component of its
    /// first argument, else `quarry`.
    static func executableName(processName: String, arguments: [String]) -> String {
        if !processName.isEmpty { return processName }
        let launched = arguments.first.flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0).lastPathComponent } ?? ""
        return launched.isEmpty || launched == "/" ? "quarry" : launched
    }

    /// Deletes an SQLite store's files: the store, its `-wal` and its `-shm` (those absent are skipped).
    static func removeSQLiteStoreFiles(at url: URL) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: url.path + suffix) }
    }
}

extension PersistentStack.Options {
    /// Where the store lives: ``storeURL``, else the default location of ``storeName`` for
    /// ``storeType`` under `environment`'s `XDG_DATA_HOME`.
    func resolvedStoreURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        storeURL ?? PersistentStack.defaultStoreURL(name: storeName, type: storeType, environment: environment)
    }

    /// These options for a stack set up from the model named `model`: the store takes the
    /// model's name unless the caller chose a store name (or a store URL, which wins anyway).
    func namingStore(afterModel model: String) -> Self {
        var options = self
        if options.chosenStoreName == nil { options.chosenStoreName = model }
        return options
    }
}
