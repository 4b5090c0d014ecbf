// libFuzzer entry point for the HTTP request parser of the web inspector. Built by
// Fuzz/run-http.sh together with the files of Sources/HTTPServing/{Messages,Parsing} into one
// module, so it can call the module's internal `fuzzHTTPRequest(_:)`
// (Sources/HTTPServing/Parsing/HTTPFuzzEntry.swift).

@_cdecl("LLVMFuzzerTestOneInput")
public func httpFuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzHTTPRequest(UnsafeRawBufferPointer(start: data, count: size))
  return 0
}
