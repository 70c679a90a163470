from harness import run
import sys
for n in [1000, 5000, 20000, 80000]:
    run("eval $a;"*n, f"eval$a x{n}")
