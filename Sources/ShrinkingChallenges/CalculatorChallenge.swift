// C09 of CHALLENGES.md: expressions that divide by zero although no divisor is the literal 0.
import Exploration

/// `Lit(Int) | Add(e, e) | Div(e, e)`.
indirect enum Expression: Equatable, Sendable {
    case literal(Int)
    case add(Expression, Expression)
    case divide(Expression, Expression)

    /// Python-style, as CHALLENGES.md §1.6 renders it: `('/', 0, ('+', 0, 0))`.
    var rendered: String {
        switch self {
        case .literal(let value): "\(value)"
        case .add(let left, let right): "('+', \(left.rendered), \(right.rendered))"
        case .divide(let left, let right): "('/', \(left.rendered), \(right.rendered))"
        }
    }

    var nodeCount: Int {
        switch self {
        case .literal: 1
        case .add(let left, let right), .divide(let left, let right):
            1 + left.nodeCount + right.nodeCount
        }
    }

    /// The precondition: no divisor is the literal 0.
    var hasLiteralZeroDivisor: Bool {
        switch self {
        case .literal: false
        case .add(let left, let right): left.hasLiteralZeroDivisor || right.hasLiteralZeroDivisor
        case .divide(let left, let right):
            right == .literal(0) || left.hasLiteralZeroDivisor || right.hasLiteralZeroDivisor
        }
    }

    /// The value, with wrapping `+` and truncating `/` (`Int.min / −1` wraps); nil on a
    /// division by zero.
    func evaluate() -> Int? {
        switch self {
        case .literal(let value): return value
        case .add(let left, let right):
            guard let a = left.evaluate(), let b = right.evaluate() else { return nil }
            return a &+ b
        case .divide(let left, let right):
            guard let a = left.evaluate(), let b = right.evaluate(), b != 0 else { return nil }
            return a.dividedReportingOverflow(by: b).partialValue
        }
    }
}

extension ShrinkingChallenge {
    /// Literal : add : divide weighted 3 : 1 : 1 (jqwik's canonical weights), arbitrary `Int`
    /// literals, recursion bounded at depth 8. Tier A `('/', 0, ('+', 0, 0))`.
    static let calculator = make(
        "calculator",
        generator: {
            let literal = Gen<Int>.int.map(Expression.literal)
            return Gen.recursive(depthMax: 8, base: literal) { smaller in
                .weighted([
                    (3, literal),
                    (1, Gen.zip(smaller, smaller).map { Expression.add($0, $1) }),
                    (1, Gen.zip(smaller, smaller).map { Expression.divide($0, $1) }),
                ])
            }
        }, render: { $0.rendered },
        tier: { expression in
            if expression == .divide(.literal(0), .add(.literal(0), .literal(0))) { return .a }
            return expression.nodeCount == 5 ? .b : .c
        },
        property: { expression in
            try assume(!expression.hasLiteralZeroDivisor)
            try check(expression.evaluate() != nil, "division by zero")
        })
}
