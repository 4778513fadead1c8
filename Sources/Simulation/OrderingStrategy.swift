// Same-instant ordering (layer 1): which of several deliveries due at the same virtual instant
// goes first. Only such ties are ever reordered, and never two of one channel; time order is
// never touched.

/// Decides the order of deliveries that fall due at the same instant.
///
/// Per-channel FIFO holds in every strategy: a channel is a (sender, receiver) pair (see
/// `Scheduler`), and two deliveries of one channel due at the same instant always arrive in
/// the order they were sent, as between two iOS processes or two actors of any actor system.
/// A strategy picks only among the channel heads of the ready run (the first delivery of each
/// channel due now, in scheduling order), so it may reorder deliveries from different senders
/// or to different receivers, and nothing else. A pick is contested when there are two or more
/// channel heads; an uncontested one draws no choice.
///
/// - `fifo` (the default): first scheduled, first served. No choices are drawn.
/// - `random`: each contested pick draws an index uniformly from the channel heads; index 0 is
///   the first-scheduled delivery.
/// - `pct`: probabilistic concurrency testing (Burckhardt, Kothari, Musuvathi and Nagarakatte,
///   ASPLOS 2010) with channels in place of threads: each (sender, receiver) channel gets a
///   random priority when it first takes part in a contested pick, the channel head with the
///   highest priority goes first (the earliest scheduled of them on a tie), and at `depth − 1`
///   change points (contested steps drawn up front) the channel that would have gone first is
///   demoted below every other. Priorities per channel, not per receiver, let PCT reorder two
///   senders' messages to one receiver, the race of a request against a state change. A bug
///   of depth d is found with probability at least 1 / (n · k^(d−1)), n channels.
///
/// Every decision is drawn from one `ChoiceSource`, so it can be recorded and replayed exactly,
/// and 0 is always the quiet answer: all-zero choices give FIFO order, which is what shrinking
/// a failing interleaving converges to.
///
///     var simulation = Simulation<Message>(ordering: .pct(seed: 7, depth: 3))
public struct OrderingStrategy {
    /// The kinds of strategy.
    public enum Kind: Equatable, Sendable {
        case fifo
        case random
        case pct(depth: Int)
    }

    /// Which strategy this is.
    public let kind: Kind
    /// Where decisions are drawn from (nil for FIFO).
    public let choices: (any ChoiceSource)?

    // PCT state. invariant: a channel has a priority once it has taken part in a contested
    // pick (looked up by key, never iterated); changePoints is sorted by step.
    private var priorities: [UInt64: Int64] = [:]
    private var changePoints: [(step: Int, level: Int64)] = []
    private var nextChangePoint = 0
    /// Contested picks made so far.
    public private(set) var contestedCount = 0

    /// The largest priority an actor can draw.
    static let priorityMax: UInt64 = 1 << 32

    /// First scheduled, first served.
    public static var fifo: OrderingStrategy { OrderingStrategy(kind: .fifo, choices: nil) }

    /// Uniform picks among simultaneous deliveries, from a xoshiro256** stream seeded `seed`.
    public static func random(seed: UInt64) -> OrderingStrategy {
        random(choices: SeededChoices(seed: seed))
    }

    /// Uniform picks among simultaneous deliveries, drawn from `choices` (to record or replay).
    public static func random(choices: any ChoiceSource) -> OrderingStrategy {
        OrderingStrategy(kind: .random, choices: choices)
    }

    /// PCT with `depth` (>= 1) from a stream seeded `seed`; change points fall among the first
    /// `contestedStepsBound` contested picks.
    public static func pct(seed: UInt64, depth: Int, contestedStepsBound: Int = 1_000)
        -> OrderingStrategy
    {
        pct(
            choices: SeededChoices(seed: seed), depth: depth,
            contestedStepsBound: contestedStepsBound)
    }

    /// PCT drawing its priorities and change points from `choices`.
    public static func pct(choices: any ChoiceSource, depth: Int, contestedStepsBound: Int = 1_000)
        -> OrderingStrategy
    {
        precondition(depth >= 1, "PCT depth is at least 1")
        precondition(contestedStepsBound >= 1, "PCT needs at least one step for change points")
        var strategy = OrderingStrategy(kind: .pct(depth: depth), choices: choices)
        for level in 1..<depth {
            // 0 means "no change point": the quiet answer.
            let drawn = choices.choose(atMost: UInt64(contestedStepsBound))
            if drawn > 0 { strategy.changePoints.append((Int(drawn) - 1, -Int64(level))) }
        }
        strategy.changePoints.sort { ($0.step, $1.level) < ($1.step, $0.level) }
        return strategy
    }

    private init(kind: Kind, choices: (any ChoiceSource)?) {
        self.kind = kind
        self.choices = choices
    }

    /// The index, within `channels`, of the delivery to make next. `channels` lists the channel
    /// key (sender and receiver) of each channel head of the ready run, in scheduling order (at
    /// least two of them); the caller maps the index back to the delivery.
    @usableFromInline
    mutating func pick(among channels: [UInt64]) -> Int {
        precondition(channels.count >= 2, "only contested picks reach the strategy")
        defer { contestedCount += 1 }
        switch kind {
        case .fifo:
            return 0
        case .random:
            return Int(choices!.choose(atMost: UInt64(channels.count - 1)))
        case .pct:
            let index = pickHighestPriority(channels)
            guard nextChangePoint < changePoints.count,
                changePoints[nextChangePoint].step == contestedCount
            else { return index }
            while nextChangePoint < changePoints.count,
                changePoints[nextChangePoint].step == contestedCount
            {
                priorities[channels[index]] = changePoints[nextChangePoint].level
                nextChangePoint += 1
            }
            return pickHighestPriority(channels)
        }
    }

    private mutating func pickHighestPriority(_ channels: [UInt64]) -> Int {
        var best = 0
        var bestPriority = Int64.min
        for (offset, channel) in channels.enumerated() {
            let priority = priority(of: channel)
            if priority > bestPriority {
                best = offset
                bestPriority = priority
            }
        }
        return best
    }

    private mutating func priority(of channel: UInt64) -> Int64 {
        if let known = priorities[channel] { return known }
        let drawn = Int64(choices!.choose(atMost: Self.priorityMax))
        priorities[channel] = drawn
        return drawn
    }
}
