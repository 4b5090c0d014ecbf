// storeclient: drive, watch and script a storehost daemon. See `storeclient --help`.
let code = await StoreClient.main(Array(CommandLine.arguments.dropFirst()), console: .standard)
Platform.terminate(code.rawValue)
