// The order of the app's `Dictionary` and `Set` (layer 3): the same in every run of a scenario,
// as it must be for a run to depend on its scenario alone.
import CVirtualClock

/// Makes the iteration order of every hash table made from now on depend only on its keys and
/// the order they were inserted in, never on where the table sits in memory.
///
/// Swift seeds each `Dictionary` and `Set` with its storage's address on top of the process's
/// seed, so two tables built alike can iterate in different orders, and which order a table
/// gets follows every allocation before it, on any thread. An app's `JSONEncoder` (which writes
/// an object's keys in its dictionary's order) wrote the same location as
/// `{"latitude":…,"speed":…}` in one run and `{"timestamp":…,"latitude":…}` in the next: the
/// same scenario run twice in one process differed (`no-state-outliving-process`), and a fuzz
/// with two jobs reported what one job did not, though the app kept no state.
///
/// The runtime's deterministic-hashing switch (the one `SWIFT_DETERMINISTIC_HASHING=1` sets
/// at start-up) turns the per-table seed off. Set later, it leaves the process's seed as it
/// is, so every table made earlier keeps finding its keys. Every world sets it as it is made,
/// so orders are the same within a process; the `lifeline` command starts itself with
/// `SWIFT_DETERMINISTIC_HASHING=1` (`LifelineCLI`), which also fixes the process's seed, so
/// orders are the same in every process too (docs/concurrency.md).
enum HashTableOrder {
    /// Set once, by the first world of the process.
    static let fixed: Void = { _ = lifeline_hash_order_fix() }()
}
