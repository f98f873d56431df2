print("sesame-emulator: not built yet")
