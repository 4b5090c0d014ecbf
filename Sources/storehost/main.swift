print("storehost: not built yet")
