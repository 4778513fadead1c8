// Generators (layer 2): values built from the choices a test case draws, so that every value
// replays from its sequence and shrinks without custom code.
import Simulation

/// Builds values of one type from the choices of a `TestCase`.
///
/// A generator draws only through the test case, so the recorded sequence rebuilds the value
/// exactly, and any edited sequence (shorter, lower) still builds a valid, simpler one. Every
/// call is recorded as a span labelled with the generator's `label`, which the shrinker uses
/// to delete, zero, or replace whole sub-values.
///
///     let lists = Gen.array(of: Gen.int(in: -10...10), length: 0...20)
///     let pairs = Gen.zip(lists, Gen.bool)
///     let sized = Gen.int(in: 1...100).flatMap { n in Gen.array(of: .int(in: 0...1000), count: n) }
public struct Gen<Value> {
    /// Identifies this generator's spans: derived from what the generator is and from its
    /// parts, the same in every process (never from memory addresses or a global counter).
    public let label: UInt64
    private let body: (TestCase) -> Value

    /// A generator with a label derived from `name` and `parts` and the given body.
    public init(_ name: String, parts: [UInt64] = [], _ body: @escaping (TestCase) -> Value) {
        self.label = spanLabel(name, parts: parts)
        self.body = body
    }

    private init(label: UInt64, body: @escaping (TestCase) -> Value) {
        self.label = label
        self.body = body
    }

    /// Draws a value from `testCase`, recording its span.
    public func generate(_ testCase: TestCase) -> Value {
        testCase.startSpan(label)
        defer { testCase.endSpan() }
        return body(testCase)
    }

    /// The same generator with another label (so that spans of different generators can be
    /// treated as alike, as the levels of a recursive generator are).
    public func labelled(_ label: UInt64) -> Gen<Value> { Gen(label: label, body: body) }

    /// Values transformed by `transform`.
    public func map<Other>(_ transform: @escaping (Value) -> Other) -> Gen<Other> {
        Gen<Other>(label: label) { transform(self.body($0)) }
    }

    /// A value, then a value of a generator chosen from it (monadic bind). Shrinking works
    /// through the dependency: the inner value's choices follow the outer's in the sequence.
    public func flatMap<Other>(_ next: @escaping (Value) -> Gen<Other>) -> Gen<Other> {
        Gen<Other>("flatMap", parts: [label]) { testCase in
            next(self.generate(testCase)).generate(testCase)
        }
    }

    /// Only values that satisfy `predicate`, trying up to `attemptMax` draws; when all fail the
    /// case is rejected (the runner reports a filter that rejects almost everything).
    public func filter(
        _ description: String = "a filter", attemptMax: Int = 100,
        _ predicate: @escaping (Value) -> Bool
    ) -> Gen<Value> {
        precondition(attemptMax >= 1, "a filter tries at least once")
        return Gen("filter", parts: [label]) { testCase in
            var value = self.generate(testCase)
            var attempts = 1
            while !predicate(value) {
                if attempts == attemptMax {
                    testCase.reject("\(description) rejected \(attemptMax) values in a row")
                    return value
                }
                value = self.generate(testCase)
                attempts += 1
            }
            return value
        }
    }
}

extension Gen {
    /// Always `value`; draws nothing.
    public static func constant(_ value: Value) -> Gen<Value> {
        Gen("constant") { _ in value }
    }

    /// One of `generators`, chosen uniformly; the first is the simplest.
    public static func oneOf(_ generators: [Gen<Value>]) -> Gen<Value> {
        weighted(generators.map { (1, $0) })
    }

    /// One of `choices`, with the given weights when generating; the first is the simplest.
    public static func weighted(_ choices: [(weight: Int, generator: Gen<Value>)]) -> Gen<Value> {
        precondition(
            !choices.isEmpty && choices.allSatisfy { $0.weight >= 0 }, "weights are not negative")
        let total = choices.reduce(0) { $0 + $1.weight }
        precondition(total > 0, "at least one weight is positive")
        return Gen(
            "weighted", parts: choices.map { UInt64($0.weight) } + choices.map(\.generator.label)
        ) { testCase in
            let index = testCase.draw(atMost: UInt64(choices.count - 1), kind: .index) { random in
                var ticket = Int(random.nextBounded(below: UInt64(total)))
                for (offset, choice) in choices.enumerated() {
                    if ticket < choice.weight { return UInt64(offset) }
                    ticket -= choice.weight
                }
                return UInt64(choices.count - 1)
            }
            return choices[Int(index)].generator.generate(testCase)
        }
    }

    /// Values built by `build` from a generator of smaller values, down to `base` at depth
    /// `depthMax`. Every level shares one label, so the shrinker can replace a node by a
    /// descendant.
    public static func recursive(
        depthMax: Int, base: Gen<Value>,
        _ build: @escaping (Gen<Value>) -> Gen<Value>
    ) -> Gen<Value> {
        precondition(depthMax >= 0, "a depth bound is not negative")
        let label = spanLabel("recursive", parts: [base.label, UInt64(depthMax)])
        var generator = base.labelled(label)
        for _ in 0..<depthMax { generator = build(generator).labelled(label) }
        return generator
    }
}

extension Gen {
    /// Values built by `build` from a context passed down from each node to its children (a
    /// heap's size and floor, a plan step's deadline), so that dependent recursive values need
    /// no hand-made recursion. `build(context, child)` returns a node's generator, which draws
    /// each child with `child(childContext).generate(testCase)`; below `depthMax` levels,
    /// `base(context)` is used instead. Every level shares one label, so the shrinker can put
    /// a subtree in its ancestor's place (`replaceWithDescendant`, and
    /// `replaceWithDescendantResized` when node counts were drawn before it).
    ///
    ///     // A heap of `size` nodes: each key at least its parent's, the left size drawn first.
    ///     let empty: (Any) -> Gen<Heap> = { _ in .constant(.empty) }
    ///     Gen<Heap>.recursive(from: (size: 7, floor: 0), depthMax: 8, base: empty) {
    ///         context, child in
    ///         Gen("node") { testCase in
    ///             guard context.size > 0 else { return .empty }
    ///             let key = context.floor + Gen<Int>.int(in: 0...100).generate(testCase)
    ///             let left = Gen<Int>.int(in: 0...context.size - 1).generate(testCase)
    ///             return .node(key, child((left, key)).generate(testCase),
    ///                          child((context.size - 1 - left, key)).generate(testCase))
    ///         }
    ///     }
    public static func recursive<Context>(
        from root: Context, depthMax: Int, base: @escaping (Context) -> Gen<Value>,
        _ build:
            @escaping (_ context: Context, _ child: @escaping (Context) -> Gen<Value>) ->
            Gen<Value>
    ) -> Gen<Value> {
        precondition(depthMax >= 0, "a depth bound is not negative")
        let label = spanLabel("recursive-context", parts: [base(root).label, UInt64(depthMax)])
        func level(_ depth: Int, _ context: Context) -> Gen<Value> {
            precondition(depth >= 0, "levels stop at depth 0")
            if depth == 0 { return base(context).labelled(label) }
            return build(context) { level(depth - 1, $0) }.labelled(label)
        }
        return level(depthMax, root)
    }
}

extension Gen {
    /// A pair of values from two generators.
    public static func zip<First, Second>(_ first: Gen<First>, _ second: Gen<Second>) -> Gen<
        (First, Second)
    >
    where Value == (First, Second) {
        Gen("zip", parts: [first.label, second.label]) { ($0 |> first, $0 |> second) }
    }

    /// A triple of values from three generators.
    public static func zip<First, Second, Third>(
        _ first: Gen<First>, _ second: Gen<Second>, _ third: Gen<Third>
    ) -> Gen<(First, Second, Third)> where Value == (First, Second, Third) {
        Gen("zip", parts: [first.label, second.label, third.label]) {
            ($0 |> first, $0 |> second, $0 |> third)
        }
    }
}

/// A span label: FNV-1a over a generator's name and its parts' labels and parameters.
public func spanLabel(_ name: String, parts: [UInt64]) -> UInt64 {
    var hash = FNV1a64()
    hash.combine(name)
    for part in parts { hash.combine(word: part) }
    return hash.value
}

infix operator |> : AdditionPrecedence

/// `testCase |> generator` draws one value.
@inline(__always)
func |> <Value>(testCase: TestCase, generator: Gen<Value>) -> Value { generator.generate(testCase) }
