/// What the SQL back ends' `migrationPlan` and `migrate` do alike once they hold a connection
/// to the old store (in the caller's transaction): walk the ``MigrationChain`` from the stored
/// model to the new one, plan and check each ``MigrationStep``, and (to migrate) run each
/// through the back end's ``SQLMigrationExecutor``.
enum SQLMigrationChainRun {
    /// The plan for migrating a store holding `stored` to `model`, reading the store through
    /// `reader`. With `countingRows`, the first step counts each entity's rows and checks its
    /// refusals against the data; later steps start from data only earlier ones would write,
    /// so they are planned without it.
    /// - Throws: ``MigrationError`` when the migration would be refused.
    static func plan(from stored: ManagedObjectModel, to model: ManagedObjectModel, versions: ModelVersionHistory?,
                     path: String, reader: any MigrationDataReader, countingRows: Bool) throws -> MigrationPlan {
        let chain = MigrationChain(stored: stored, target: model, versions: versions)
        var steps: [MigrationPlan.Step] = []
        for (i, (from, to)) in zip(chain.models, chain.models.dropFirst()).enumerated() {
            let data = i == 0 && countingRows ? reader : nil
            let step = MigrationStep(source: from.model, destination: to.model,
                                     maxKeys: i == 0 ? try maxKeys(reader, model: from.model) : [:])
            try step.check(data, path: path)
            steps.append(MigrationPlan.Step(sourceVersion: from.name, destinationVersion: to.name, entities: try step.entityChanges(data)))
        }
        return MigrationPlan(path: path, steps: steps, notes: chain.notes)
    }

    /// Migrates the store `reader` reads from `stored` to `model`, one step at a time, each run
    /// by the executor `executor` makes for it; returns what was done. The caller records the
    /// new model and commits.
    /// - Throws: ``MigrationError``, or the back end's error: the caller rolls back.
    static func migrate<Executor: SQLMigrationExecutor>(
        from stored: ManagedObjectModel, to model: ManagedObjectModel, versions: ModelVersionHistory?, path: String,
        reader: any MigrationDataReader, progress: MigrationProgressReporter, executor: (MigrationStep) -> Executor
    ) throws -> MigrationPlan {
        let chain = MigrationChain(stored: stored, target: model, versions: versions)
        let pairs = Array(zip(chain.models, chain.models.dropFirst()))
        var steps: [MigrationPlan.Step] = []
        for (i, (from, to)) in pairs.enumerated() {
            let step = MigrationStep(source: from.model, destination: to.model, maxKeys: try maxKeys(reader, model: from.model))
            try step.check(reader, path: path)
            let changes = try step.entityChanges(nil)
            let migration = executor(step)
            progress.begin(step: i + 1, of: pairs.count, total: try migration.rowsToMove(reader))
            try migration.run(path: path, progress: progress)
            steps.append(MigrationPlan.Step(sourceVersion: from.name, destinationVersion: to.name, entities: changes))
        }
        return MigrationPlan(path: path, steps: steps, notes: chain.notes)
    }

    /// The largest primary key of each table of `model`'s layout, by table name.
    private static func maxKeys(_ reader: any MigrationDataReader, model: ManagedObjectModel) throws -> [String: Int64] {
        var result: [String: Int64] = [:]
        for table in StoreLayout.of(model).tables {
            result[table.name] = Int64(try reader.count("SELECT COALESCE(MAX(\"Z_PK\"), 0) FROM \(sqlIdentifier(table.name))"))
        }
        return result
    }
}
