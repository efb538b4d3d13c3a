import ArgumentParser

/// `--model FILE` for the commands that can do without one (`browse`, `import`, `convert`):
/// a model file to use instead of the one the store records. Each command's discussion says
/// what more it does with it (`browse` and `import` create a store that does not exist).
struct ModelOption: ParsableArguments {
    @Option(name: .long, help: "A model file to use instead of the one kept in the store.")
    var model: String?
}

/// `--model FILE` for the commands that cannot do without one (`create`, `migrate`): the model
/// file, in any form ``ModelLoading/load(modelAt:reportingWarnings:)`` reads.
struct RequiredModelOption: ParsableArguments {
    @Option(name: .long, help: "The model file (.json, .xcdatamodel, .xcdatamodeld, contents, .momd or .mom).")
    var model: String
}
