// The live-updates study's two forms (docs/kit-engines.md, "The async live-updates path,
// measured") receive and store the same updates: the instructions callgrind counts for them
// are the cost of the same work.
import LiveUpdatesStudy
import Simulation
import Testing

@Suite struct LiveUpdatesStudyTests {
    @Test func bothFormsReceiveAndStoreTheSameFixes() {
        // Ten minutes (the callgrind runs take 10 and 20 hours in release; a debug build takes
        // about 10 ms per update).
        let world = LiveUpdatesStudyForm.world.run(for: .minutes(10))
        // A fix a second, the app left after a minute: the background activity session keeps
        // the stream going.
        #expect(world.updates > 590)
        #expect(world.storedFixes.count >= world.updates - 1)
        for form in [LiveUpdatesStudyForm.kit, .kitMainActor] {
            let kit = form.run(for: .minutes(10))
            #expect(kit.updates == world.updates, "\(form)")
            #expect(kit.storedFixes == world.storedFixes, "\(form)")
        }
    }
}
