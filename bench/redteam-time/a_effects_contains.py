# Many commands whose name is composed at run time (`x$a`): each adds an Unknown effect at
# its own offset; Judge::effect dedups with Vec::contains -> N^2/2 compares (checking pass).
from harness import run
for n in [5000, 20000, 40000]:
    cmd = "x$a\n" * n
    run(cmd, f"effects-contains n={n}")
