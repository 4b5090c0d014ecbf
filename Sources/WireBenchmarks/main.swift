// Wire benchmarks, release mode: `swift run -c release WireBenchmarks [section...]`.
// Each section prints medians of 5 runs. Sections are selected by name (all by default).

let sections: [(name: String, run: () -> Void)] = [
  ("json", runJSONBenchmarks),
  ("patch", runPatchBenchmarks),
  ("transport", runTransportBenchmarks),
  ("targets", runReferenceTargets),
]

let arguments = Array(CommandLine.arguments.dropFirst())
if arguments.first == "loop" {
  ProfileLoops.run(Array(arguments.dropFirst()))
} else {
  let requested = Set(arguments)
  for section in sections where requested.isEmpty || requested.contains(section.name) {
    section.run()
  }
}
