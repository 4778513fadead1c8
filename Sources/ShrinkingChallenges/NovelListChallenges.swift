// Challenges of our own over lists and strings the shrinker was not tuned to: positions that
// must change in pairs, values that must stay distinct and in order, nested lists whose sums
// must agree. Each is defined as CHALLENGES.md defines its challenges: generator, property,
// what counts as minimal (§1.4's order on the choice sequence).
import Exploration

extension ShrinkingChallenge {
    /// N01 `repeatedpair`: a list of integers in `0...1000`. **Fails** iff two neighbours
    /// `(x, y)` with `x ≠ y` occur again, as neighbours, further on without overlapping (a
    /// repeated two-step pattern in a log). **Tier A** `[0, 1, 0, 1]`: four elements are
    /// needed, the first is 0 at best, the second then differs from it (1 at best), and the
    /// last two repeat them. **Tier B** any failing list of 4. **Why**: each value occurs at
    /// two positions that must change together.
    static let repeatedPair = make(
        "repeatedpair", generator: { .array(of: .int(in: 0...1000), length: 0...50) },
        render: { renderList($0) },
        tier: { list in
            if list == [0, 1, 0, 1] { return .a }
            return list.count == 4 ? .b : .c
        },
        property: { list in
            try check(repeatedNeighbours(in: list) == nil, "a pair of neighbours repeats")
        })

    /// N02 `palindrome`: a string of lowercase letters (`a`…`z`, one integer each, length
    /// `0...20`). **Fails** iff it reads the same backwards, has at least 3 letters and not
    /// all of them alike. **Tier A** `aba`. **Tier B** any failing string of 3 letters.
    /// **Why**: a palindrome shrinks only by deleting two letters at mirrored positions at
    /// once, and lowering the letters of a mirrored pair together.
    static let palindrome = make(
        "palindrome",
        generator: { .array(of: .int(in: 0...25), length: 0...20) },
        render: { "\"" + letters($0) + "\"" },
        tier: { word in
            if word == [0, 1, 0] { return .a }
            return word.count == 3 ? .b : .c
        },
        property: { word in
            let isPalindrome = word == Array(word.reversed())
            try check(
                !(isPalindrome && word.count >= 3 && Set(word).count >= 2),
                "\(letters(word)) is a palindrome")
        })

    /// N03 `sortedtriple`: a list of integers in `0...1000`. **Fails** iff it holds at least
    /// three distinct values of 100 or more. **Tier A** `[100, 101, 102]`. **Tier B** any
    /// failing list of 3. **Why**: `[102, 101, 100]` is a local minimum for lowering one value
    /// at a time (each lowering makes two values equal); only reordering reaches the minimum.
    static let sortedTriple = make(
        "sortedtriple", generator: { .array(of: .int(in: 0...1000), length: 0...50) },
        render: { renderList($0) },
        tier: { list in
            if list == [100, 101, 102] { return .a }
            return list.count == 3 ? .b : .c
        },
        property: { list in
            try check(Set(list.filter { $0 >= 100 }).count < 3, "three distinct values ≥ 100")
        })

    /// N04 `distinct`: a list of arbitrary integers. **Fails** iff it holds at least four
    /// distinct values. **Tier A** `[0, 1, -1, 2]` (the four simplest values of §1.4, in
    /// order). **Tier B** any failing list of 4. **Why**: values must stay apart while each
    /// is lowered, and end in order (Hypothesis keeps the like of it in its shrink-quality
    /// tests).
    static let distinct = make(
        "distinct", generator: { .array(of: Gen<Int>.int, length: 0...50) },
        render: { renderList($0) },
        tier: { list in
            if list == [0, 1, -1, 2] { return .a }
            return list.count == 4 ? .b : .c
        },
        property: { list in
            try check(Set(list).count < 4, "four distinct values")
        })

    /// N05 `nestedsum`: a list (length `0...10`) of lists (length `0...10`) of integers in
    /// `0...100`. **Fails** iff two different inner lists have the same positive sum (two
    /// baskets priced alike although their contents differ). **Tier A** `[[0, 1], [1]]`: two
    /// singletons with equal sums are equal, so three values are needed; a first value of 0
    /// leaves `[0, y]` and `[y]`, with `y` at best 1. **Tier B** three values in two lists.
    /// **Why**: a value must move between lists (lowering one breaks the equal sums), and
    /// empty or duplicate inner lists must go while the pair stays.
    static let nestedSum = make(
        "nestedsum",
        generator: { .array(of: .array(of: .int(in: 0...100), length: 0...10), length: 0...10) },
        render: { renderList($0) { renderList($0) } },
        tier: { lists in
            if lists == [[0, 1], [1]] { return .a }
            return lists.count == 2 && lists.joined().count == 3 ? .b : .c
        },
        property: { lists in
            try check(equalSumPair(in: lists) == nil, "two different lists have one sum")
        })
}

/// The first position `i` whose neighbours `(list[i], list[i + 1])`, different values, occur
/// again at some `j ≥ i + 2`; nil when there is none.
func repeatedNeighbours(in list: [Int]) -> Int? {
    guard list.count >= 4 else { return nil }
    for first in 0..<list.count - 3 where list[first] != list[first + 1] {
        for second in first + 2..<list.count - 1
        where list[second] == list[first] && list[second + 1] == list[first + 1] {
            return first
        }
    }
    return nil
}

/// Two different inner lists with the same positive sum, as their positions; nil when none.
func equalSumPair(in lists: [[Int]]) -> (Int, Int)? {
    let sums = lists.map { $0.reduce(0, +) }
    for first in lists.indices where sums[first] > 0 {
        for second in first + 1..<lists.count
        where sums[second] == sums[first] && lists[second] != lists[first] {
            return (first, second)
        }
    }
    return nil
}

/// Letters `a`…`z` for the integers `0...25`.
func letters(_ word: [Int]) -> String {
    String(word.map { Character(Unicode.Scalar(UInt8(97 + $0))) })
}
