# `hash -p /bin/sh n1 … nK`: Judge::rebind scans every earlier rebind (Vec, linear
# `any`) -> K^2/2 name compares per walk pass, uncharged.
from harness import run
for k in [5000, 20000, 40000, 80000]:
    cmd = "hash -p /bin/sh " + " ".join(f"n{i}" for i in range(k)) + "\n"
    run(cmd, f"rebinds k={k}")
