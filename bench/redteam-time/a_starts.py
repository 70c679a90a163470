# Many simple commands: Judge::simple does `self.starts.contains(&c.at)` (a Vec) for each
# command in every collecting pass -> N^2/2 per pass per reading, uncharged.
from harness import run
def gen(n):
    return ":\n" * n
if __name__ == "__main__":
    for n in [10000, 20000, 40000, 60000]:
        run(gen(n), f"starts n={n}")
