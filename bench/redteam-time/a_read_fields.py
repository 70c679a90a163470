# `{ read a; read a; … } <<'EOF'` with a body of many blank-separated fields:
# builtins::read -> Val::with_fields splits the whole body into fields (a Vec per field)
# and joins each as a text, per read, uncharged: M reads x F fields.
from harness import run
def gen(body_kb, m):
    body = ("a " * 31 + "a\n") * (body_kb * 1024 // 64)
    return "{\n" + "read a\n" * m + "} <<'EOF'\n" + body + "EOF\n"
if __name__ == "__main__":
    for body_kb, m in [(256, 1), (256, 10), (1024, 10), (3500, 10), (3500, 50)]:
        run(gen(body_kb, m), f"read-fields body={body_kb}K m={m}", heredoc=False)
