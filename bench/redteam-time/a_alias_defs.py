# One `alias a0=x a1=x … aN=x`: alias::Reader::unit_done calls Aliases::set per
# definition, which retains over every earlier definition (Vec) -> N^2/2 name compares in
# each of the 5 alias-expanding readings, uncharged (one unit, no clock look).
from harness import run
def gen(n):
    return "alias " + " ".join(f"a{i}=x" for i in range(n)) + "\n:\n"
if __name__ == "__main__":
    for n in [5000, 20000, 40000, 80000]:
        run(gen(n), f"alias-defs n={n}")
