import Foundation
import Testing
@testable import Quarry
import QuarryTestSupport

/// A small catalogue model for the uniqueness-constraint tests:
///
/// - `Company` (code, unique; name, city, employees) ↔ `Product.company` (to-many, cascade)
/// - `Listing` (exchange + symbol, one compound constraint; price, currency)
/// - `Account` (email and handle, each unique on its own)
enum UniquenessFixture {
    static func model() -> ManagedObjectModel {
        var b = ModelBuilder()
        b.entity("Company") { e in
            e.attribute("code", .string, optional: false)
            e.attribute("name", .string)
            e.attribute("city", .string)
            e.attribute("employees", .integer64)
            e.toMany("products", destination: "Product", inverse: "company", deleteRule: .cascade)
            e.unique("code")
        }
        b.entity("Product") { e in
            e.attribute("title", .string, optional: false)
            e.toOne("company", destination: "Company", inverse: "products")
        }
        b.entity("Listing") { e in
            e.attribute("exchange", .string, optional: false)
            e.attribute("symbol", .string, optional: false)
            e.attribute("price", .double)
            e.attribute("currency", .string)
            e.unique("exchange", "symbol")
        }
        b.entity("Account") { e in
            e.attribute("email", .string)
            e.attribute("handle", .string)
            e.unique("email")
            e.unique("handle")
        }
        return try! ManagedObjectModel(b.definition)
    }

    /// Inserts a company with `values` (attribute name → value) and products titled `products`.
    @discardableResult
    static func company(in context: ObjectContext, _ values: [String: Value], products: [String] = []) throws -> ManagedObject {
        let company = try context.insertObject(entityName: "Company")
        try company.setValues(values)
        for title in products {
            let product = try context.insertObject(entityName: "Product")
            try product.setValue(.string(title), forKey: "title")
            try product.setObject(company, forKey: "company")
        }
        return company
    }

    /// A store holding ACME (name Acme, city Paris, no employee count, product "Anvil") and
    /// `others`; returns the store and each stored company's ID by code.
    static func store(_ kind: StoreKind, others: [[String: Value]] = []) throws -> (TestStore, [String: ObjectID]) {
        let store = TestStore(kind, model: model())
        let setup = try store.context("setup")
        let ids = try setup.performAndWait {
            var made = [try company(in: setup, ["code": .string("ACME"), "name": .string("Acme"), "city": .string("Paris")],
                                    products: ["Anvil"])]
            for values in others { made.append(try company(in: setup, values, products: ["Nut"])) }
            try setup.save()
            return Dictionary(uniqueKeysWithValues: made.map { (text($0["code"]), $0.objectID) })
        }
        return (store, ids)
    }

    /// The stored companies as code → (name, city, employees, product titles), read by a new context.
    static func companies(in store: TestStore) throws -> [String: StoredCompany] {
        let reader = try store.context("reader")
        return try reader.performAndWait {
            var result: [String: StoredCompany] = [:]
            for company in try reader.objects(ofEntity: "Company") {
                let titles = try company.objects(forKey: "products").map { text($0["title"]) }
                result[text(company["code"])] = StoredCompany(
                    id: company.objectID, name: company["name"], city: company["city"], employees: company["employees"],
                    products: Set(titles))
            }
            return result
        }
    }

    /// The string a value holds (empty for anything else).
    static func text(_ value: Value) -> String {
        if case .string(let s) = value { return s }
        return ""
    }

    struct StoredCompany {
        let id: ObjectID
        let name: Value
        let city: Value
        let employees: Value
        let products: Set<String>
    }
}
