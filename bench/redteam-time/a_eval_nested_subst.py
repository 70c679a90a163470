# eval of literal text holding nested substitutions: every offset of eval text is pinned
# to the eval's offset, so program::build's `substs` map (keyed by offset) maps the
# inner `$(…)` to the outer one's program; Judge::subst -> walk -> simple -> subst of the
# same key recurses without end: stack overflow, abort (SIGABRT) in ~10 ms.
from harness import run
for cmd in ["eval 'echo $(echo $(echo x))'", "eval 'a=$(b=$(c))'", "x=$(eval 'echo $(echo $(echo x))')"]:
    dt, p = run(cmd, cmd[:30])
    print("   stderr:", p.stderr.decode()[:200].strip())
