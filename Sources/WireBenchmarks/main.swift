runPatchBenchmarks()
