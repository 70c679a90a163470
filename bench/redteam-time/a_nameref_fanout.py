# b namerefs, each referring to all b names (refs joined over assignments):
# Judge::var_at follows refs recursively to MAX_NEST=8 levels -> b^8 calls per use,
# var() charges only the final value's bytes + 1.
from harness import run
import sys
for b in [2, 3, 4, 5, 6, 8]:
    names = [f"n{i}" for i in range(b)]
    cmd = "declare -n " + " ".join(names) + "\n"
    for n in names:
        for t in names:
            cmd += f"{n}={t}\n"
    cmd += 'echo "$n0"\n'
    run(cmd, f"nameref-fanout b={b}")
