// The property example of docs/properties.md, verbatim, so that it keeps compiling and passing.
import Exploration
import ExplorationTesting
import Testing

struct MySuite {
    @Test func sortedKeepsElements() {
        propertyCheck(in: Self.self, Gen.array(of: Gen<Int>.int(in: -100...100))) { list in
            try check(list.sorted().count == list.count, "an element was lost")
        }
    }
}
