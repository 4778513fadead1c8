// Events pushed as they are told (layer 4): an engine made during a recorded run tells the
// record that it kept an event, so that the record reads its events only after a delivery in
// which it told some.

/// Hears that an engine kept an event (its `TrackingEngine.events` grew), as it happens: the
/// record of a run listens, so that it reads an engine's events only after a delivery in which
/// the engine told any, not after every delivery to the app (`EngineEventStamper`).
package protocol EngineEventListener: AnyObject {
    /// The engine appended to its `events`.
    func engineDidTell()
}

/// An engine that pushes its events to a listener (the built-in engines). The record reads an
/// engine that does not after every delivery to the app.
package protocol PushesEngineEvents: AnyObject {
    /// Told after every event the engine keeps (held weakly: the listener holds the engines).
    var eventListener: (any EngineEventListener)? { get set }
}
