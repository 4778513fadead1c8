// The list challenges of CHALLENGES.md §2: reverse, deletion, nestedlists, lengthlist, bound5,
// each with the generator exactly as specified there.
import Exploration

extension ShrinkingChallenge {
    /// C01: a list of arbitrary integers is not a palindrome. Tier A `[0, 1]`.
    static let reverse = make(
        "reverse", generator: { .array(of: Gen<Int>.int, length: 0...100) },
        render: { renderList($0) },
        tier: { list in
            if list == [0, 1] { return .a }
            return list.count == 2 && list[0] != list[1] ? .b : .c
        },
        property: { list in
            try check(Array(list.reversed()) == list, "the list is not a palindrome")
        })

    /// C03: removing the first occurrence of `ls[i]` leaves none. Tier A `([0, 0], 0)`.
    static let deletion = make(
        "deletion",
        generator: {
            .zip(.array(of: Gen<Int>.int, length: 0...100), .int(in: 0...10))
        }, render: { "(\(renderList($0.0)), \($0.1))" },
        tier: { pair in
            let (list, index) = pair
            if list == [0, 0] && index == 0 { return .a }
            return list.count == 2 && list[0] == list[1] && index <= 1 ? .b : .c
        },
        property: { pair in
            let (list, index) = pair
            try assume(index < list.count)
            var copy = list
            let value = list[index]
            copy.remove(at: copy.firstIndex(of: value)!)
            try check(!copy.contains(value), "\(value) occurs twice")
        })

    /// C05: lists of lists of the constant 0 hold at most 10 elements in all.
    /// Tier A: one inner list of 11.
    static let nestedLists = make(
        "nestedlists",
        generator: {
            .array(of: .array(of: Gen<Int>.constant(0), length: 0...100), length: 0...100)
        }, render: { renderList($0) { renderList($0) } },
        tier: { lists in
            let total = lists.reduce(0) { $0 + $1.count }
            if lists.count == 1 && total == 11 { return .a }
            return total == 11 ? .b : .c
        },
        property: { lists in
            try check(lists.reduce(0) { $0 + $1.count } <= 10, "more than 10 elements")
        })

    /// C07: n in 1...100, then (bind) exactly n integers in 0...1000, all below 900.
    /// Tier A `[900]`.
    static let lengthList = make(
        "lengthlist",
        generator: {
            Gen<Int>.int(in: 1...100).flatMap { count in
                Gen.array(of: .int(in: 0...1000), count: count)
            }
        }, render: { renderList($0) },
        tier: { list in
            if list == [900] { return .a }
            return list.filter { $0 != 0 } == [900] ? .b : .c
        },
        property: { list in
            try check(list.max()! < 900, "an element is at least 900")
        })

    /// C08: five lists of 16-bit integers (length 0...10), each filtered to a wrapped sum
    /// below 256; their wrapped total is below 1280. Tier A: singletons −1 and −32768.
    static let bound5 = make(
        "bound5",
        generator: {
            let list = Gen.array(of: Gen<Int16>.int16, length: 0...10)
                .filter("a wrapped sum below 256") { wrappingSum($0) < 256 }
            return Gen<[[Int16]]>("bound5", parts: [list.label]) { testCase in
                (0..<5).map { _ in list.generate(testCase) }
            }
        }, render: { lists in "(" + lists.map { renderList($0) }.joined(separator: ", ") + ")" },
        tier: { lists in
            let nonEmpty = lists.filter { !$0.isEmpty }
            guard nonEmpty.count == 2, nonEmpty.allSatisfy({ $0.count == 1 }) else { return .c }
            let values = nonEmpty.map { Int($0[0]) }
            if Set(values) == [-1, -32768] { return .a }
            return values.reduce(0, +) == -32769 ? .b : .c
        },
        property: { lists in
            try check(
                wrappingSum(lists.flatMap { $0 }) < 1280, "the wrapped total reached 1280 or more")
        })
}

/// The sum with 16-bit two's-complement wrapping (CHALLENGES.md §1.5).
func wrappingSum(_ values: [Int16]) -> Int16 { values.reduce(0, &+) }
