// libFuzzer entry point for the NATS client's protocol parser: whatever a NATS server (or
// something posing as one) sends. Built by Fuzz/run-nats.sh together with the files of
// Sources/NATS/Protocol into one module, so it can call the module's internal
// `fuzzNATSProtocol(_:)` (Sources/NATS/Protocol/NATSFuzzEntry.swift).

@_cdecl("LLVMFuzzerTestOneInput")
public func natsFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzNATSProtocol(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}
