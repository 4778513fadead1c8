// The Swift runtime's deterministic-hashing switch, set after start-up (HashTableOrder.c).
// Not for direct use: see World's `HashTableOrder`.
#ifndef LIFELINE_HASHTABLEORDER_H
#define LIFELINE_HASHTABLEORDER_H

/// Turns off the per-table seed of every `Dictionary` and `Set` made from now on (the part of
/// `SWIFT_DETERMINISTIC_HASHING=1` that can be set while tables exist); 0 when done, -1 when
/// the runtime has no such switch.
int lifeline_hash_order_fix(void);

#endif
