print("sesamectl: not built yet")
