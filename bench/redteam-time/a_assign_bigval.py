# A variable holding a large quoted heredoc's text, then M plain assignments to it:
# value::assign_val clones the variable's whole value twice (before/after) and compares
# them, per assignment, uncharged (an assignment costs a few units).
from harness import run
def gen(body_kb, m):
    body = ("y" * 63 + "\n") * (body_kb * 1024 // 64)
    return "v=$(cat <<'EOF'\n" + body + "EOF\n)\n" + "v=1\n" * m
if __name__ == "__main__":
    for body_kb, m in [(1024, 100), (1024, 1000), (3500, 20000)]:
        run(gen(body_kb, m), f"assign-bigval body={body_kb}K m={m}", heredoc=False)
