/// One run of an import over a file's bytes, on the importer context's queue: the validation
/// pass, then the insert pass.
struct ImportSession {
    let file: String
    let bytes: UnsafeRawBufferPointer
    let format: ImportFormat
    let entity: EntityDescription
    let context: ObjectContext
    let options: ImportOperation.Options
    let isCancelled: () -> Bool
    let progress: (@Sendable (ImportProgress) -> Void)?

    func run() throws(ImportError) -> ImportSummary {
        let resolver = ImportDestinationResolver(context: context, createsMissing: options.createsMissingDestinations)
        guard let total = try validate(resolver: resolver) else {
            return ImportSummary(rowsValidated: 0, rowsImported: 0, chunksSaved: 0, destinationsCreated: 0, wasCancelled: true)
        }
        return try insert(total: total, resolver: resolver)
    }

    // MARK: Pass 1

    /// Checks every row; returns the row count, or `nil` when cancelled.
    /// - Throws: ``ImportError/invalidRows(file:errors:totalCount:)`` when any row is bad.
    private func validate(resolver: ImportDestinationResolver) throws(ImportError) -> Int? {
        var errors: [ImportRowError] = []
        var badRows = 0
        func note(_ position: ImportPosition, _ message: String) {
            badRows += 1
            if errors.count < ImportOperation.maximumReportedErrors {
                errors.append(ImportRowError(file: file, line: position.line, column: position.column(in: bytes), message: message))
            }
        }
        var reader: any ImportRecordReader
        do { reader = try makeReader() } catch {
            note(error.position, error.message)
            throw .invalidRows(file: file, errors: errors, totalCount: badRows)
        }
        var plan = ImportColumnPlan(entity: entity, model: context.model, mapping: options.columnMapping)
        if reader.hasFixedColumns {
            // The header decides for every row: report it alone rather than once per row.
            plan.resolve(reader.columnNames)
            for (c, target) in plan.targets.enumerated() {
                if case .unknown(let message) = target { note(reader.columnPositions[c], message) }
            }
            let start = ImportPosition(line: reader.columnPositions.first?.line ?? 1, lineStart: reader.columnPositions.first?.lineStart ?? 0, offset: reader.columnPositions.first?.lineStart ?? 0)
            for message in plan.uncoveredRequirements { note(start, message) }
            if badRows > 0 { throw .invalidRows(file: file, errors: errors, totalCount: badRows) }
        }
        var builder = ImportRowBuilder(entity: entity, bytes: bytes)
        var record = ImportRecord()
        var rows = 0
        while true {
            do {
                guard try reader.next(into: &record) else { break }
            } catch {
                note(error.position, error.message)
                // Every row is checked: after a bad record the reader reads on when it can.
                guard error.isResumable else { break }
                rows += 1
                continue
            }
            rows += 1
            if !reader.hasFixedColumns { plan.resolve(reader.columnNames) }
            do {
                if let problem = try builder.build(record, row: rows, plan: plan, resolver: resolver) { note(problem.position, problem.message) }
            } catch {
                note(record.position, "row \(rows): \(error)")
            }
            if rows % options.chunkSize == 0 {
                if isCancelled() { return nil }
                progress?(ImportProgress(phase: .validating, rowsDone: rows, totalRows: nil))
            }
        }
        if badRows > 0 { throw .invalidRows(file: file, errors: errors, totalCount: badRows) }
        return rows
    }

    // MARK: Pass 2

    /// Inserts every row in chunks, saving each; stops before saving a chunk when cancelled.
    private func insert(total: Int, resolver: ImportDestinationResolver) throws(ImportError) -> ImportSummary {
        var summary = ImportSummary(rowsValidated: total, rowsImported: 0, chunksSaved: 0, destinationsCreated: 0, wasCancelled: false)
        guard total > 0 else { return summary }
        var reader: any ImportRecordReader
        do { reader = try makeReader() } catch { throw failure(error.position, error.message, summary) }
        var plan = ImportColumnPlan(entity: entity, model: context.model, mapping: options.columnMapping)
        plan.resolve(reader.columnNames)
        var builder = ImportRowBuilder(entity: entity, bytes: bytes)
        var record = ImportRecord()
        var inChunk = 0
        var rows = 0
        let chunkSize = options.chunkSize
        let chunks = (total + chunkSize - 1) / chunkSize
        let mark = ImportMark(bytes: bytes, file: file, entity: entity.name, chunkSize: chunkSize)
        let saved = try savedChunks(mark)
        if saved.count == chunks {
            throw .alreadyImported(file: file, entity: entity.name, rows: total, chunks: chunks)
        }
        summary.rowsAlreadySaved = saved.reduce(0) { $0 + min(chunkSize, total - ($1 - 1) * chunkSize) }
        func chunk(ofRow row: Int) -> Int { (row - 1) / chunkSize + 1 }

        func saveChunk() throws(ImportError) -> Bool {
            if isCancelled() {
                context.rollback()
                summary.wasCancelled = true
                return false
            }
            let index = chunk(ofRow: rows)
            context.name = mark.author(chunk: index, of: chunks, rows: (rows - inChunk + 1)...rows)
            do { try context.save() } catch {
                context.rollback()
                throw failure(record.position, "saving rows \(rows - inChunk + 1)–\(rows) failed: \(error)", summary)
            }
            summary.rowsImported += inChunk
            summary.chunksSaved += 1
            summary.destinationsCreated = resolver.createdCount
            inChunk = 0
            progress?(ImportProgress(phase: .inserting, rowsDone: rows, totalRows: total))
            return true
        }

        while true {
            do {
                guard try reader.next(into: &record) else { break }
            } catch {
                context.rollback()
                throw failure(error.position, error.message, summary)
            }
            rows += 1
            if !reader.hasFixedColumns { plan.resolve(reader.columnNames) }
            // A chunk an earlier run saved is read past, not inserted again.
            if saved.contains(chunk(ofRow: rows)) { continue }
            // A chunk an earlier run saved is read past, not inserted again.
            if saved.contains(chunk(ofRow: rows)) { continue }
            do {
                if let problem = try builder.build(record, row: rows, plan: plan, resolver: resolver) {
                    context.rollback()
                    throw failure(problem.position, problem.message, summary)
                }
                try insertRow(builder, resolver: resolver)
            } catch let error as ImportError {
                throw error
            } catch {
                context.rollback()
                throw failure(record.position, "row \(rows): \(error)", summary)
            }
            inChunk += 1
            if inChunk == chunkSize, try !saveChunk() { return summary }
        }
        if inChunk > 0, try !saveChunk() { return summary }
        return summary
    }

    /// The chunks of this import that earlier runs saved (none when asked to import again, or
    /// for a store that keeps no history).
    private func savedChunks(_ mark: ImportMark) throws(ImportError) -> Set<Int> {
        guard !options.importsAgain, let history = context.coordinator.store as? PersistentHistoryStore else { return [] }
        do {
            return mark.savedChunks(in: try history.historyAuthors(withPrefix: mark.prefix))
        } catch {
            throw .unreadable(file: file, reason: "cannot read the store's history to find an earlier import of this file: \(error)")
        }
    }

    private func insertRow(_ builder: ImportRowBuilder, resolver: ImportDestinationResolver) throws {
        let object = try context.insertObject(entityName: entity.name)
        for a in builder.assigned { try object.setValue(builder.values[a], at: a) }
        for key in builder.relationshipKeys where !key.value.isNull {
            let destination = try resolver.object(relationship: key.relationship, destination: key.destination, keyIndex: key.keyIndex, value: key.value)
            try object.setObject(destination, forKey: entity.relationships[key.relationship].name)
        }
    }

    private func failure(_ position: ImportPosition, _ message: String, _ summary: ImportSummary) -> ImportError {
        .insertFailed(ImportRowError(file: file, line: position.line, column: position.column(in: bytes), message: message), savedRows: summary.rowsImported)
    }

    private func makeReader() throws(ImportSyntaxError) -> any ImportRecordReader {
        switch format {
        case .csv: return try ImportCSVReader(bytes: bytes)
        case .jsonLines: return try ImportJSONReader(bytes: bytes, isArray: false)
        case .json: return try ImportJSONReader(bytes: bytes, isArray: true)
        }
    }
}
