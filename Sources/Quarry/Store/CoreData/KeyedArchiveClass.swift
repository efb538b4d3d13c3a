/// The Foundation classes the keyed-archive reader decodes in full, told apart by the class
/// chain (`$classes`) so a subclass (`NSMutableArray`, `__NSCFString`…) counts as its base.
enum KeyedArchiveClass {
    case string, data, date, array, dictionary, knownKeysDictionary, other

    init(classes: [String]) {
        let names = Set(classes)
        if names.contains("NSKnownKeysDictionary1") { self = .knownKeysDictionary }
        else if names.contains("NSDictionary") { self = .dictionary }
        else if names.contains("NSArray") || names.contains("NSSet") || names.contains("NSOrderedSet") { self = .array }
        else if names.contains("NSString") { self = .string }
        else if names.contains("NSData") { self = .data }
        else if names.contains("NSDate") { self = .date }
        else { self = .other }
    }
}
