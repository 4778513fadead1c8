// The one asynchronous-sequence shape behind Core Location's event streams in LifelineKit
// (`CLMonitor.Events`, `CLServiceSession.Diagnostics`, `CLBackgroundActivitySession.Diagnostics`).

/// An asynchronous sequence of one kind of Core Location event, as Apple types its streams:
/// `for try await` over it, and its iterator's `next()` throws. Apple's names are typealiases
/// of it (`CLMonitor.Events`, `CLServiceSession.Diagnostics`). Each iteration reads the stream
/// `makeStream` gives when the iteration begins: a monitor's one stream of events, or a new
/// stream of a session's diagnostics for every iteration.
public struct CLEventSequence<Element: Sendable>: AsyncSequence, Sendable {
    public typealias Failure = any Error
    let makeStream: @Sendable () -> AsyncStream<Element>

    public func makeAsyncIterator() -> Iterator { Iterator(base: makeStream().makeAsyncIterator()) }

    /// The iterator (`CLMonitor.Events.Iterator` and the others).
    public struct Iterator: AsyncIteratorProtocol {
        public typealias Failure = any Error
        var base: AsyncStream<Element>.Iterator

        public mutating func next() async throws -> Element? { await base.next() }

        public mutating func next(
            isolation actor: isolated (any Actor)? = #isolation
        ) async throws -> Element? {
            await base.next(isolation: actor)
        }
    }
}
