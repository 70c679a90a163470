# N variables, then one `read $x $x … $x` (M targets named by the environment):
# builtins::read_target -> state::assign_named assigns opaque to every variable known
# (keys cloned, two Val clones each) per target -> N*M inside one command, no clock look.
from harness import run
import sys
def gen(n, m):
    return "declare " + " ".join(f"a{i}" for i in range(n)) + "\nread" + " $x" * m + "\n"
if __name__ == "__main__":
    for n, m in [(2000, 2000), (5000, 5000), (10000, 10000), (20000, 20000), (30000, 30000)]:
        run(gen(n, m), f"assign-named n={n} m={m}")
