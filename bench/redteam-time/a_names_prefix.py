# N variables, then one command with M `${!a@}`: value::param_val (ParamOp::Names)
# collects every variable name with the prefix and sorts them, per use, uncharged
# (N log N per use, M uses in one command). word_val charges pieces+1.
from harness import run
def gen(n, m):
    return "declare " + " ".join(f"a{i}" for i in range(n)) + "\n:" + " ${!a@}" * m + "\n"
if __name__ == "__main__":
    for n, m in [(5000, 5000), (20000, 20000), (30000, 30000)]:
        run(gen(n, m), f"names-prefix n={n} m={m}")
