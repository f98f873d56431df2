print("sesamed: not built yet")
