// The live-updates study's forms (docs/studies/kit-engines.md, "The async live-updates path,
// measured") receive and store the same updates: the instructions callgrind counts for them
// are the cost of the same work.
import LiveUpdatesStudy
import Simulation
import Testing

@Suite struct LiveUpdatesStudyTests {
    @Test func bothFormsReceiveAndStoreTheSameFixes() {
        // Three minutes, two of them in the background (the callgrind runs take 10 and 20
        // hours).
        let world = LiveUpdatesStudyForm.world.run(for: .minutes(3))
        // A fix a second, the app left after a minute: the background activity session keeps
        // the stream going.
        #expect(world.updates > 170)
        #expect(world.storedFixes.count >= world.updates - 1)
        for form in [LiveUpdatesStudyForm.kit, .kitMainActor] {
            let kit = form.run(for: .minutes(3))
            #expect(kit.updates == world.updates, "\(form)")
            #expect(kit.storedFixes == world.storedFixes, "\(form)")
        }
    }
}
