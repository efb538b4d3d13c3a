extension SortedResults {
    /// An entry's sort keys: a single key held inline, more in an array.
    ///
    /// Most requests sort by one key, and a change event builds, copies and drops one entry
    /// per changed result several times over: held inline, a number, date or boolean key
    /// costs no allocation and no reference counting.
    enum Keys: RandomAccessCollection, Equatable, CustomStringConvertible {
        /// Exactly one sort key.
        case one(Value)
        /// Any other number of sort keys.
        case many([Value])

        /// The keys `values`.
        init(_ values: [Value]) {
            self = values.count == 1 ? .one(values[0]) : .many(values)
        }

        /// `count` keys, key `k` being `value(k)`.
        @inline(__always)
        init(count: Int, _ value: (Int) -> Value) {
            self = count == 1 ? .one(value(0)) : .many((0..<count).map(value))
        }

        var startIndex: Int { 0 }

        var endIndex: Int {
            switch self {
            case .one: return 1
            case .many(let values): return values.count
            }
        }

        subscript(k: Int) -> Value {
            @inline(__always) get {
                switch self {
                case .one(let value):
                    precondition(k == 0, "sort key \(k) of one")
                    return value
                case .many(let values):
                    return values[k]
                }
            }
        }

        var description: String { Array(self).description }
    }
}
