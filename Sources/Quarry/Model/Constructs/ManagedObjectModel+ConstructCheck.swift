extension ManagedObjectModel {
    /// Checks what the resolver leaves to a whole model: every derived attribute's expression
    /// parses and reads a value its attribute can hold, every fetched property's destination
    /// exists and its predicate parses, every fetch request template and configuration names
    /// entities of the model.
    /// - Throws: ``ModelError`` naming the entity and property (and the column in the
    ///   expression or predicate) at fault.
    func checkConstructs() throws {
        for entity in entities {
            for attribute in entity.definition.attributes where attribute.isDerived {
                _ = try derivation(of: attribute, in: entity)
            }
            for fetched in entity.definition.fetchedProperties {
                func refuse(_ reason: String) -> ModelError { .invalidFetchedProperty(entity: entity.name, property: fetched.name, reason: reason) }
                guard self.entity(named: fetched.destination) != nil else {
                    throw refuse(fetched.destination.isEmpty ? "it has no destination entity" : "destination '\(fetched.destination)' is not in the model")
                }
                do {
                    _ = try FetchedPropertyPredicate(fetched.predicate)
                } catch {
                    throw refuse("predicate '\(fetched.predicate)': \(error)")
                }
            }
        }
        var templateNames = Set<String>()
        for template in definition.fetchRequestTemplates {
            func refuse(_ reason: String) -> ModelError { .invalidFetchRequestTemplate(name: template.name, reason: reason) }
            guard templateNames.insert(template.name).inserted else { throw refuse("two templates have this name") }
            guard entity(named: template.entity) != nil else { throw refuse("entity '\(template.entity)' is not in the model") }
            if !template.predicate.allSatisfy(\.isWhitespace) {
                do { _ = try ObjectPredicate(format: template.predicate) } catch { throw refuse("predicate '\(template.predicate)': \(error)") }
            }
        }
        var configurationNames = Set<String>()
        for configuration in definition.configurations {
            guard configurationNames.insert(configuration.name).inserted else {
                throw ModelError.invalidConfiguration(name: configuration.name, reason: "two configurations have this name")
            }
            for name in configuration.entities where entity(named: name) == nil {
                throw ModelError.invalidConfiguration(name: configuration.name, reason: "entity '\(name)' is not in the model")
            }
        }
    }

    /// The parsed derivation of derived `attribute` of `entity`, with the plan of the key path
    /// it reads, checked against the attribute's type.
    /// - Throws: ``ModelError/invalidDerivation(entity:attribute:expression:reason:)``.
    func derivation(of attribute: AttributeDescription, in entity: EntityDescription) throws -> (DerivationExpression, KeyPathPlan?) {
        let text = attribute.derivationExpression ?? ""
        func refuse(_ reason: String) -> ModelError {
            .invalidDerivation(entity: entity.name, attribute: attribute.name, expression: text, reason: reason)
        }
        guard !attribute.isTransient else { throw refuse("a derived attribute is stored, so it cannot be transient") }
        let expression: DerivationExpression
        do {
            expression = try DerivationExpression(parsing: text)
        } catch {
            throw refuse(error.description)
        }
        guard let path = expression.keyPathRead else {
            guard attribute.type == .date else { throw refuse("now() gives a date; the attribute is \(attribute.type.rawValue)") }
            return (expression, nil)
        }
        let plan: KeyPathPlan
        do {
            plan = try KeyPathPlan(path, entity: entity, model: self)
        } catch {
            throw refuse("\(error) (column \(Self.column(of: path, in: text)))")
        }
        guard plan.isSingleValued else {
            throw refuse("'\(path)' crosses a to-many, so it reads many values; end it with a collection operator (@count, @sum, @avg, @min, @max) (column \(Self.column(of: path, in: text)))")
        }
        guard let valueType = plan.valueType else {
            throw refuse("'\(path)' ends at a relationship; a derived attribute copies an attribute's value (column \(Self.column(of: path, in: text)))")
        }
        if case .function(let function, _) = expression {
            guard valueType == .string, attribute.type == .string else {
                throw refuse("\(function.rawValue): works on strings; '\(path)' is \(valueType.rawValue) and the attribute \(attribute.type.rawValue)")
            }
        } else if !Self.holds(attribute.type, valueType) {
            throw refuse("'\(path)' gives \(valueType.rawValue) values, which a \(attribute.type.rawValue) attribute cannot hold")
        }
        return (expression, plan)
    }

    /// Whether an attribute of type `target` holds values of type `source` (numbers in any
    /// numeric type, otherwise the same type).
    private static func holds(_ target: AttributeType, _ source: AttributeType) -> Bool {
        if target.isNumeric && source.isNumeric { return true }
        if target == .boolean && source.isInteger { return true }
        return target == source
    }

    /// The 1-based column where `path`'s first key starts in `text` (1 when not found).
    private static func column(of path: String, in text: String) -> Int {
        let first = String(path.split(separator: ".").first ?? "")
        guard let range = text.range(of: first) else { return 1 }
        return text.distance(from: text.startIndex, to: range.lowerBound) + 1
    }
}
