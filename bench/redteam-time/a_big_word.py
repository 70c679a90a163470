# One word of many pieces (`$a$a$a…`, or a long literal assignment): the effects walk
# re-parses every word (word::read) several times per command per pass (simple, assignment
# detection, check_word, the last word for `$_`), each parse allocating a piece per `$a`.
from harness import run
def gen(kind, n):
    if kind == "params":
        return ": " + "$a" * n + "\n"
    if kind == "assign":
        return "x=" + "$a" * n + "\n"
    return "x=" + "a" * n + "\n"
if __name__ == "__main__":
    for kind, n in [("params", 50000), ("params", 200000), ("assign", 200000), ("lit", 3000000)]:
        run(gen(kind, n), f"big-word {kind} n={n}")
