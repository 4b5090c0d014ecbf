// libFuzzer entry point for the Wire pipeline: frame decoder → JSON parser → message decoder.
// Built by Fuzz/run.sh together with every file of Sources/Wire into one module, so it can call
// the module's internal `fuzzOne(_:)` (Sources/Wire/Messages/FuzzEntry.swift).

@_cdecl("LLVMFuzzerTestOneInput")
public func wireFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzOne(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}
