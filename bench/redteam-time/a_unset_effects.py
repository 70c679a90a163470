# One `unset $v $v … $v` where v holds heredoc-ish text ($(ps): the shell's command line):
# each argument adds a Flow effect at its own offset; Judge::effect dedups with
# Vec::contains (quadratic in effects, inside one command), then rules::effect_findings
# `add` scans findings linearly per effect (quadratic again) and line_from memchr's the
# rest of the (one, long) line per finding.
from harness import run
def gen(k):
    return "v=$(ps)\nunset" + " $v" * k + "\n"
if __name__ == "__main__":
    for k in [5000, 20000, 40000, 80000]:
        run(gen(k), f"unset-effects k={k}")
