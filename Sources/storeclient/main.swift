print("storeclient: not built yet")
