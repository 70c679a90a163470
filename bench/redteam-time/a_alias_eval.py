# N aliases defined, then M `eval :`: builtins::run_code clones the whole alias table
# (self.aliases.clone(): N (name, value) Vec pairs) for every eval it reads, in each of
# the alias-expanding readings and every walk pass; charged text.len()/16+1.
from harness import run
def gen(n, m):
    return "alias " + " ".join(f"a{i}=x" for i in range(n)) + "\n" + "eval :\n" * m
if __name__ == "__main__":
    for n, m in [(2000, 2000), (5000, 5000), (8000, 3000)]:
        run(gen(n, m), f"alias-eval n={n} m={m}")
