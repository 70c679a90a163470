# N variable assignments x M `env` commands: Judge::command scans every variable per `env`
# (self.vars.values().any(..)) -> N*M per walk pass, uncharged.
from harness import run
import sys
for n in [2000, 5000, 10000, 15000]:
    cmd = "".join(f"a{i}=1\n" for i in range(n)) + "env\n" * n
    run(cmd, f"env-vars n={n}")
