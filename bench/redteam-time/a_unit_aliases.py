# U aliases defined on a line, then on the same line a substitution of W words:
# Judge::alias_in_subst collects the substitution's words (collect_words, word::read each)
# and, for every alias defined earlier on the line, scans every word: U*W per use, per
# walk pass, in every reading (8 with aliases on), uncharged.
from harness import run
def gen(u, w, uses=1):
    return "alias " + " ".join(f"a{i}=x" for i in range(u)) + "; :" + (" $(:" + " w" * w + ")") * uses + "\n"
if __name__ == "__main__":
    for u, w in [(2000, 2000), (5000, 5000), (10000, 10000), (15000, 15000)]:
        run(gen(u, w), f"unit-aliases u={u} w={w}")
