# A variable with 8 literal values, each of which evals the variable again: eval_text runs
# each value (8 texts) and nests to MAX_NEST=8 -> 8^8 run_code calls, each charged (text/16+1
# plus the reading): bounded by the budget, but slow per unit (re-reading, Prog build, walk).
from harness import run
def gen(k, pad=0):
    lines = "".join(f"a='eval $a #{i}{'x'*pad}'\n" for i in range(k))
    return lines + "eval $a\n"
if __name__ == "__main__":
    for k in [2, 4, 8]:
        run(gen(k), f"eval-fanout k={k}")
    run(gen(8, 100), "eval-fanout k=8 pad=100")
