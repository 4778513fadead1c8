// Swarm testing (layer 2): each case first draws which kinds of choice may occur at all, so
// that rare combinations are tried (Groce et al., "Swarm testing", ISSTA 2012).

/// Which of a fixed list of features are on for one case. Drawn first in the case; a feature
/// off is the simpler answer, so shrinking turns off whatever the failure does not need.
public struct FeatureMask: Hashable, Sendable, CustomStringConvertible {
    /// Bit i is set when feature i is on.
    public var bits: UInt64
    /// How many features there are (at most 64).
    public var count: Int

    public init(bits: UInt64, count: Int) {
        precondition((0...64).contains(count), "at most 64 features")
        self.bits = bits
        self.count = count
    }

    /// True when feature `index` is on.
    public func isEnabled(_ index: Int) -> Bool {
        precondition(index >= 0 && index < count, "the feature exists")
        return bits >> UInt64(index) & 1 == 1
    }

    public var description: String {
        String((0..<count).map { isEnabled($0) ? "1" : "0" })
    }
}

extension Gen where Value == FeatureMask {
    /// A mask of `count` features, each on with probability 1/2 when generating.
    public static func swarm(featureCount count: Int) -> Gen<FeatureMask> {
        precondition((1...64).contains(count), "1 to 64 features")
        return Gen("swarm", parts: [UInt64(count)]) { testCase in
            var bits: UInt64 = 0
            for index in 0..<count
            where testCase.draw(atMost: 1, kind: .index, generate: { $0.nextBounded(below: 2) })
                == 1
            {
                bits |= 1 << UInt64(index)
            }
            return FeatureMask(bits: bits, count: count)
        }
    }
}

extension Gen {
    /// One of `choices` whose feature (its position) is on in `mask`, by weight; when every
    /// feature is off, the first choice.
    public static func weighted(
        _ choices: [(weight: Int, generator: Gen<Value>)], enabledBy mask: FeatureMask
    ) -> Gen<Value> {
        precondition(choices.count == mask.count, "one feature per choice")
        let enabled: [(weight: Int, generator: Gen<Value>)] = choices.enumerated().map {
            (mask.isEnabled($0.offset) ? $0.element.weight : 0, $0.element.generator)
        }
        return enabled.contains { $0.weight > 0 } ? weighted(enabled) : choices[0].generator
    }
}
