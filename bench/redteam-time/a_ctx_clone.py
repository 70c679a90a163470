# A group whose input is a large quoted heredoc, holding many commands: Judge::walk
# clones the Ctx (whose stdin Val holds the whole body text) for every node, and
# Judge::simple clones it again (here = ctx.clone()): N nodes x B body bytes, charged 1/node.
from harness import run
import sys
for body_kb, n in [(64, 1000), (256, 2000), (1024, 2000), (1024, 8000), (2048, 16000)]:
    body = ("y" * 63 + "\n") * (body_kb * 1024 // 64)
    cmd = "{\n" + ":\n" * n + "} <<'EOF'\n" + body + "EOF\n"
    run(cmd, f"ctx-clone body={body_kb}K n={n}", heredoc=False)
