// `live-updates-study FORM HOURS`: runs one form of the live-updates study (`world`, `kit` or
// `kit-main-actor`) on a drive of HOURS hours and prints the updates received, the fixes stored
// and a hash of them, for callgrind (docs/studies/kit-engines.md, "The async live-updates path,
// measured").
import Foundation
import LiveUpdatesStudy

let arguments = CommandLine.arguments.dropFirst()
guard let form = arguments.first.flatMap(LiveUpdatesStudyForm.init(rawValue:)),
    let hours = arguments.dropFirst().first.flatMap({ Int($0) })
else {
    print("usage: live-updates-study world|kit|kit-main-actor HOURS")
    exit(2)
}
let result = form.run(for: .hours(Int64(hours)))
var hash: UInt64 = 14_695_981_039_346_656_037
for fix in result.storedFixes {
    let words = [
        UInt64(bitPattern: fix.instant.nanosecondsSinceStart), fix.coordinate.latitude.bitPattern,
        fix.coordinate.longitude.bitPattern, fix.horizontalAccuracyMeters.bitPattern,
        fix.speedMetersPerSecond.bitPattern,
    ]
    for word in words { hash = (hash ^ word) &* 1_099_511_628_211 }
}
print(
    "\(form.rawValue) \(hours) h: \(result.updates) updates, "
        + "\(result.storedFixes.count) fixes stored, hash \(hash)")
