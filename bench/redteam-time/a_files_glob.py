# N files written (`: >f1 >f2 …`), then one `cat * * … *` (M globbed args): for a name the
# guard cannot tell, Judge::file_content walks every file written (and names_descriptor
# calls file_keys again) per argument: N*M inside one command, uncharged.
from harness import run
def gen(n, m):
    return ": " + " ".join(f">f{i}" for i in range(n)) + "\ncat" + " *" * m + "\n"
if __name__ == "__main__":
    for n, m in [(5000, 5000), (20000, 20000), (40000, 40000)]:
        run(gen(n, m), f"files-glob n={n} m={m}")
