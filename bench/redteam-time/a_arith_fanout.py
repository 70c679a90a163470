# A value that names itself k times, evaluated in arithmetic: Judge::arith_taint ->
# static_arith_taint -> arith_taint(var(n)) for every name, to MAX_NEST=8 levels.
from harness import run
import sys
for k in [2, 4, 8, 16, 64, 256, 1024]:
    val = "+".join(["x"] * k)
    cmd = f"x='{val}'\necho $((x))\n"
    run(cmd, f"arith-self k={k}")
