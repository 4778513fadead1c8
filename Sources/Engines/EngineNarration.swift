// Whether the built-in engines keep what they tell (layer 4): narration is for timelines, and a
// run judged without one need not hold it.

/// Whether the built-in engines made during a run keep the `TrackingEvent`s they tell
/// (`TrackingEngine.events`). No invariant reads narration, only timelines do, and a week's drive
/// tells about two million events (`lifeline bench drive`), so a run that prints no timeline
/// (a fuzzed case, a benchmark) asks its engines not to keep them
/// (`RunRecord.run(keepsNarration:)`). An engine reads it once, when it is made; a team's engine
/// keeps whatever it keeps.
package enum EngineNarration {
    /// True outside any run that says otherwise.
    @TaskLocal package static var isKept = true
}
