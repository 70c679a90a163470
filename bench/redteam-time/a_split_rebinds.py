# A command named by an unquoted variable whose one literal value holds the whole command
# (`c='hash -p /bin/sh n0 … nK'; $c`): Judge::split_fields splits it into K literal words
# (the reading charged the value once, in bulk, 16 bytes a unit; the use charges bytes/16),
# then state.rs rebind's linear scan makes hash -p K^2/2 compares in one command.
from harness import run
def gen(k):
    return "c='hash -p /bin/sh " + " ".join(f"n{i}" for i in range(k)) + "'\n$c\n"
if __name__ == "__main__":
    for k in [20000, 50000, 100000]:
        run(gen(k), f"split-rebinds k={k}")

def gen_escaped(k):
    # Backslash-escaped blanks: a plain word is read at 1 unit a byte (2 inside quotes).
    return "c=hash\\ -p\\ /bin/sh" + "".join(f"\\ n{i}" for i in range(k)) + "\n$c\n"
