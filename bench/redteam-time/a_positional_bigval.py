# A function called once with a large value, then called M times with no arguments:
# Judge::command -> set_positional assigns 12 variables ($@, $*, $1…$9, argv), each
# assign_val cloning the variable's whole value twice and comparing: 12 x 2 x B per call,
# uncharged (a call costs a few units).
from harness import run
def gen(body_kb, m):
    body = ("y" * 63 + "\n") * (body_kb * 1024 // 64)
    return "f() { :; }\nv=$(cat <<'EOF'\n" + body + "EOF\n)\nf \"$v\"\n" + "f\n" * m
if __name__ == "__main__":
    for body_kb, m in [(256, 100), (256, 1000), (1024, 20000)]:
        run(gen(body_kb, m), f"positional-bigval body={body_kb}K m={m}", heredoc=False)
