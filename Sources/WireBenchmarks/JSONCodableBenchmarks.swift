func runJSONCodableBenchmarks() {}
