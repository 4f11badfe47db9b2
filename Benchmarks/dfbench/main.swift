print("dfbench: no scenarios yet")
