// The Swift runtime's hashing parameters (stdlib/public/SwiftShims/swift/shims/GlobalObjects.h,
// `_SwiftHashingParameters`): two seeds drawn at start-up and a flag that, when set, makes
// each hash table's own seed its size alone instead of its storage's address.
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "HashTableOrder.h"

struct lifeline_swift_hashing_parameters {
    uint64_t seed0;
    uint64_t seed1;
    bool deterministic;
};

/// Defined by libswiftCore; weak, so that a runtime without it leaves the order alone.
extern struct lifeline_swift_hashing_parameters _swift_stdlib_Hashing_parameters
    __attribute__((weak));

int lifeline_hash_order_fix(void) {
    if (&_swift_stdlib_Hashing_parameters == NULL) return -1;
    // A table reads the flag once, when it is made or grows, and keeps the seed it got: the
    // tables that exist keep finding their keys. The seeds are left alone for the same reason.
    __atomic_store_n(&_swift_stdlib_Hashing_parameters.deterministic, true, __ATOMIC_RELEASE);
    return 0;
}
