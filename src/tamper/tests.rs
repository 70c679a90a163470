//! The rule on the reader's readings, in throwaway homes: what it denies with the hook
//! installed, what it passes with nothing installed.

use std::path::PathBuf;

use super::{Ctx, check};
use crate::shell::{Dialect, Shell, read};

/// A throwaway home with a project directory, and the guard's binary at `bin`.
struct Home {
    dir: tempfile::TempDir,
}

impl Home {
    fn new() -> Home {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir_all(dir.path().join("project")).unwrap();
        std::fs::create_dir_all(dir.path().join("bin")).unwrap();
        std::fs::write(dir.path().join("bin/heredoc-guard"), "#!/bin/sh\n").unwrap();
        Home { dir }
    }

    fn path(&self) -> PathBuf {
        std::fs::canonicalize(self.dir.path()).unwrap()
    }

    fn write(&self, rel: &str, text: &str) {
        let p = self.path().join(rel);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, text).unwrap();
    }

    /// The user-level hook, as `install claude` writes it.
    fn hooked(self) -> Home {
        let hook = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash|Monitor",
            "hooks": [{"type": "command", "command": format!("{}/bin/heredoc-guard", self.path().display())}]}]}});
        self.write(".claude/settings.json", &hook.to_string());
        self.write(
            ".codex/hooks.json",
            &hook.to_string().replace("Bash|Monitor", "^Bash$"),
        );
        self
    }

    fn ctx(&self) -> Ctx {
        let home = self.path();
        Ctx {
            cwd: Some(home.join("project")),
            exe: vec![home.join("bin/heredoc-guard")],
            path_dirs: vec![home.join("bin")],
            home: Some(home),
            homes: Vec::new(),
            managed: Vec::new(),
        }
    }

    /// The reason's `what`, when denied.
    fn verdict(&self, command: &str) -> Option<String> {
        let readings: Vec<_> = Shell::ALL
            .iter()
            .map(|s| read(command, Dialect::new(*s)))
            .collect();
        let refs: Vec<_> = readings.iter().collect();
        check(command, &refs, &self.ctx()).map(|d| d.reason)
    }
}

fn denied(home: &Home, commands: &[&str]) {
    for c in commands {
        assert!(home.verdict(c).is_some(), "not denied: {c}");
    }
}

fn passed(home: &Home, commands: &[&str]) {
    for c in commands {
        assert_eq!(home.verdict(c), None, "denied: {c}");
    }
}

#[test]
fn with_the_hook_installed_changing_the_guard_or_its_files_is_denied_however_laid_out() {
    let home = Home::new().hooked();
    denied(
        &home,
        &[
            "heredoc-guard uninstall claude",
            "sudo -E env A=1 timeout 5 heredoc-guard install codex --no-trust",
            "rm ~/.claude/settings.json",
            "rm $HOME/.claude/settings.json",
            "rm \"${HOME}/.codex/hooks.json\"",
            "rm ../.claude/settings.json",
            "cd ~/.claude && rm settings.json",
            "echo \"<<EOF\"\nrm ~/.claude/settings.json\nEOF",
            "x=1 # <<E\nrm ~/.codex/hooks.json\nE",
            "echo $((1<<X))\nrm ~/.claude/settings.json\nX",
            "cat <<< hi\nrm ~/.claude/settings.json",
            "echo '{}' > ~/.claude/settings.json",
            "jq 'del(.hooks)' ~/.claude/settings.json > /tmp/s && mv /tmp/s ~/.claude/settings.json",
            "sed -i 's/heredoc-guard/true/' ~/.codex/hooks.json",
            "perl -pi -e 's/x/y/' ~/.claude/settings.json",
            "tee ~/.codex/hooks.json < /dev/null",
            "mv ~/.codex ~/.codex.off",
            "rm -rf ~/.claude",
            "rm -rf ~/.c*",
            &format!(
                "rm ~/.claude/{{{}settings.json}}",
                (0..70).map(|i| format!("x{i},")).collect::<String>()
            ),
            "rm ~/.claude/*.json",
            "cp /tmp/x.json ~/.claude/settings.json",
            "cp /tmp/settings.json ~/.claude/",
            "ln -sf /dev/null ~/.claude/settings.json",
            "chmod 000 ~/.claude/settings.json",
            "find ~ -name settings.json -delete",
            "bash -c 'rm ~/.codex/hooks.json'",
            "sh -c \"heredoc-guard uninstall codex\"",
            "eval 'rm ~/.claude/settings.json'",
            // A trap's text runs when its signal comes (on EXIT, as the command ends).
            "trap 'rm -f ~/.claude/settings.json' EXIT",
            "trap -- 'heredoc-guard uninstall codex' EXIT INT",
            "trap '-x; rm -f ~/.claude/settings.json' EXIT",
            "trap 'rm -f ~/.claude/settings.json'* EXIT",
            // Text piped into a shell, through zsh's `print` or `head`; zsh's `chdir`; a
            // linter that writes its file in place (round 78).
            "print 'rm -f ~/.claude/settings.json' | sh",
            "head <<'EOF' | sh\nrm -f ~/.claude/settings.json\nEOF",
            "chdir ~; rm -rf .claude",
            "jsonlint -i ~/.claude/settings.json",
            // An alias's text, run where its name is a command, in trap or eval text too
            // (round 79).
            "alias x='rm ~/.claude/settings.json'; trap x EXIT",
            "alias -g y='heredoc-guard uninstall claude'",
            // What printf, echo -e and print make from a format or escapes (round 79).
            "printf 'rm -f ~/.claude/%s.json' settings | sh",
            "echo -e 'rm -f ~/.claude/settings\\x2ejson' | sh",
            // Text a filter passes on into a shell (round 79).
            "printf 'rm -f ~/.claude/settings.json\\n' | tee /dev/null | sh",
            "cat <<'EOF' | grep -v '#' | sort | sh\n# clean up\nrm -f ~/.claude/settings.json\nEOF",
            // Through a filter the rule does not model, which may pass it on (round 81).
            "printf 'rm -f ~/.claude/settings.json\\n' | sed 's/x/y/' | sh",
            "echo 'rm -f ~/.claude/settings.json' | awk '{print}' | bash",
            "echo 'rm -f ~/.claude/settings.json' | rev | rev | sh",
            "cat <<'EOF' | paste - | sh\nrm -f ~/.claude/settings.json\nEOF",
            // Through a compound command, into one, through `xargs`, or named as the
            // shell's standard input (round 81).
            "printf 'rm -f ~/.claude/settings.json' | { cat; } | sh",
            "printf 'rm -f ~/.claude/settings.json' | (sed p) | sh",
            "printf 'rm -f ~/.claude/settings.json\\n' | while read -r l; do echo \"$l\"; done | sh",
            "{ echo cd; printf 'rm -f ~/.claude/settings.json'; } | bash",
            "printf 'rm -f ~/.claude/settings.json' | sed p | if true; then sh; fi",
            "printf 'rm -f ~/.claude/settings.json' | xargs -0 sh -c",
            "printf 'rm -f ~/.claude/settings.json\\n' | xargs -I{} sh -c '{}'",
            "echo rm -f ~/.claude/settings.json | xargs env",
            "printf 'rm -f ~/.claude/settings.json\\n' | sed p | sh /dev/stdin",
            "printf 'rm -f ~/.claude/settings.json' | sh //dev/./stdin",
            "printf 'rm -f ~/.claude/settings.json' | sh < /dev/stdin",
            "printf 'rm -f ~/.claude/settings.json' | { cat | sh; }",
            "{ printf 'rm -f ~/.claude/settings.json'; } 2>/dev/null | sh",
            "{ sh; } <<'EOF'\nrm -f ~/.claude/settings.json\nEOF",
            "{ cat; } <<< 'rm -f ~/.claude/settings.json' | sh",
            "printf 'rm -f ~/.claude/settings.json' | grep \"$(printf r)\" | sh",
            "echo rm -f ~/.claude/settings.json | xargs echo | sh",
            "printf 'rm -f ~/.claude/settings.json' | tee >(sh) >/dev/null",
            "printf 'rm -f ~/.claude/settings.json' | xargs -0r sh -c",
            "printf 'rm -f ~/.claude/settings.json\\n' | xargs -0 bash -c 'eval \"$0\"'",
            "printf 'rm -f ~/.claude/settings.json' | { true; sh -s x; }",
            "printf 'rm -f ~/.claude/settings.json' | { x=$(true); bash -o posix; }",
            "printf '%s' ~/.claude/settings.json | { true; xargs rm; }",
            "printf 'rm -f ~/.claude/settings.json' | { true; env A=1 B=2 C=3 D=4 E=5 F=6 G=7 H=8 I=9 sh; }",
            "cd ~ && xargs -d '\\012' rm <<'EOF'\n.claude/settings.json\nEOF",
            "echo rm -f ~/.claude/settings.json | xargs sh -c '\"$@\"' _",
            "echo 'rm -f ~/.claude/settings.json' | sh $(true)",
            "echo rm -f ~/.claude/settings.json | xargs sh -c 'true; exec \"$@\"' _",
            "cd ~ && echo \"'.claude/settings.json'\" | xargs rm",
            "cd ~ && echo '.claude/settings\\.json' | xargs rm",
            "{ sh; } <<<'cat <<Z' <<<: <<<: <<<: <<<: <<<: <<<: <<<: <<<'rm -f ~/.claude/settings.json'",
            // Behind a wrapper or spelled with an escape (round 80).
            "command printf 'rm -f ~/.claude/%s.json' settings | sh",
            "printf '%*s -f ~/.claude/%s.json' 0 rm settings | sh",
            "\\read 'a[$(rm -f ~/.claude/settings.json)]' <<< 1",
            "cd ~ && flock /tmp/lock env -S rm -rf .claude",
            // A command whose words are not read must still hide no `env -S` (round 78).
            "flock /tmp/lock env -S rm ~/.claude/settings.json",
            "bash <<'EOF'\nheredoc-guard uninstall codex\nEOF",
            "cat <<'EOF' | sh\nrm ~/.codex/hooks.json\nEOF",
            "x=$(rm ~/.claude/settings.json)",
            "python3 -c \"import os; os.remove(os.path.expanduser('~/.claude/settings.json'))\"",
            "python3 - <<'EOF'\nimport json, pathlib\np = pathlib.Path.home() / '.claude' / 'settings.json'\np.write_text('{}')\nEOF",
            "node -e \"require('fs').writeFileSync(process.env.HOME + '/.claude/settings.json', '{}')\"",
            "rm ~/bin/heredoc-guard",
            "rm -f \"$(command -v heredoc-guard)\"",
            "rm $(which heredoc-guard)",
            "printf '#!/bin/sh\\nexit 0' > ~/bin/heredoc-guard",
            "chmod -x ~/bin/heredoc-guard",
            "cp --target-directory=$HOME/bin ./heredoc-guard",
            "cp /bin/true ~/bin/heredoc-guard",
            "mv ~/bin /tmp/x",
            "rm -rf ~/*",
            "npm uninstall -g heredoc-guard",
            "npx -y heredoc-guard uninstall claude",
            "claude plugin disable heredoc-guard@heredoc-guard",
            "codex features disable hooks",
            "sudo rm /etc/claude-code/managed-settings.d/heredoc-guard.json",
            "echo x >> /etc/codex/requirements.toml",
            "git checkout -- ~/.claude/settings.json",
            "cp -r /tmp/fake/. ~/.claude/",
            "rsync -a /tmp/fake/ ~/.codex",
            "python3 -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~/.claude'))\"",
            "> ~/.claude/settings.json",
            "exec 3>~/.claude/settings.json",
            "bash <<< 'rm ~/.claude/settings.json'",
            "printf 'rm ~/.codex/hooks.json' | sh",
            "mv ~/.claude/settings.json{,.bak}",
            "find ~/.claude -delete",
            "chmod -R 000 ~/.claude",
            "vim -c ':%d|x' ~/.claude/settings.json",
            "f=~/.claude/settings.json; rm \"$f\"",
            "for f in ~/.codex/hooks.json ~/x; do rm \"$f\"; done",
            "export D=$HOME/.claude\nrm -rf \"${D}\"",
            "env -S 'rm ~/.claude/settings.json'",
            "rsync --remove-source-files ~/.claude/settings.json /tmp/",
            "sudo mount --bind /tmp/empty ~/.claude",
            "cd /a; cd /b; cd /c; cd /d; cd /e; cd /f; cd /g; cd /h; cd /i; cd ~/.claude; rm settings.json",
            // A `cd` is taken in when a later command needs the directories: in order,
            // `cd` alone to the home directory, `cd -` not followed.
            "cd; cd .claude; rm settings.json",
            "cd ..; ls; cd .claude; cd -; rm settings.json",
            "cd ..; cd .claude && find . -delete",
            "cd ..\ncd .codex\necho '{}' > hooks.json",
        ],
    );
}

#[test]
fn a_visible_switch_off_written_to_settings_is_denied_installed_or_not() {
    for home in [Home::new(), Home::new().hooked()] {
        denied(
            &home,
            &[
                "cat > .claude/settings.json <<'EOF'\n{\"disableAllHooks\": true}\nEOF",
                "mkdir -p .claude && echo '{\"disableAllHooks\":true}' > .claude/settings.local.json",
                // (A reader's word whose text differs from how it is written: its text
                // after quote removal is what shows the switch.)
                "echo '{\"disable'\"AllHo\"'oks\": true}' > .claude/settings.local.json",
                "mkdir -p .claude && echo $'{\"disableAllH\\x6f\\x6fks\": true}' > .claude/settings.local.json",
                // (Or printed from a format or escapes: round 79.)
                "printf '{\"%s\": true}' disableAllHooks > .claude/settings.local.json",
                "printf '{\"disableAllH\\157\\157ks\": true}' > .claude/settings.local.json",
                "jq '.disableAllHooks = true' .claude/settings.json > /tmp/x && mv /tmp/x .claude/settings.json",
                "python3 -c \"import json; json.dump({'disableAllHooks': True}, open('.claude/settings.json', 'w'))\"",
                "printf '[features]\\nhooks = false\\n' >> ~/.codex/config.toml",
                "cat > ~/.gemini/settings.json <<'EOF'\n{\"hooksConfig\": {\"enabled\": false}}\nEOF",
            ],
        );
    }
}

#[test]
fn with_nothing_installed_writing_settings_is_an_ordinary_task() {
    let home = Home::new();
    passed(
        &home,
        &[
            "cat > ~/.claude/settings.json <<'EOF'\n{\"theme\": \"dark\"}\nEOF",
            "cat > ~/.codex/config.toml <<'EOF'\nmodel = \"o3\"\nEOF",
            "mkdir -p .claude && cat > .claude/settings.json <<'EOF'\n{\"permissions\": {\"allow\": [\"Bash(npm test)\"]}, \"hooks\": {\"PostToolUse\": [{\"matcher\": \"Edit\", \"hooks\": [{\"type\": \"command\", \"command\": \"prettier --write\"}]}]}}\nEOF",
            "python3 -c \"import json;print(json.load(open('.claude/settings.json')))\"",
            "jq . .claude/settings.json > /tmp/x && mv /tmp/x .claude/settings.json",
            "sed -i 's/dark/light/' ~/.claude/settings.json",
            "rm -rf ~/.claude",
            "heredoc-guard doctor",
        ],
    );
}

#[test]
fn with_the_hook_installed_reading_and_other_files_pass() {
    let home = Home::new().hooked();
    home.write("project/.claude/settings.json", "{\"theme\": \"dark\"}");
    passed(
        &home,
        &[
            "cat ~/.claude/settings.json",
            "jq .hooks ~/.codex/hooks.json",
            "grep -n heredoc-guard ~/.codex/hooks.json",
            "cp ~/.claude/settings.json /tmp/backup.json",
            "cp ~/.claude/settings.json .",
            "python3 -c \"import json;print(json.load(open('$HOME/.claude/settings.json'))['hooks'])\"",
            "heredoc-guard explain 'heredoc-guard uninstall claude'",
            "heredoc-guard doctor",
            "echo heredoc-guard uninstall is how you remove it",
            "cat > notes.md <<'EOF'\nrm ~/.claude/settings.json\nheredoc-guard uninstall claude\nEOF",
            "echo '{}' > settings.json",
            "sed -i 's/dark/light/' .claude/settings.json",
            "jq '.model = \"opus\"' .claude/settings.json > /tmp/x && mv /tmp/x .claude/settings.json",
            "rm -rf target/ node_modules/",
            "find . -name '*.pyc' -delete",
            "cp CLAUDE.md ~/.claude/",
            "mkdir -p .claude/commands && echo hi > .claude/commands/x.md",
            "ls 2>/dev/null; echo done >&2",
            "git checkout main",
            "rm -rf ./*",
            "f=notes.md; rm \"$f\"; for d in build dist; do rm -rf \"$d\"; done",
            "cp -r /tmp/templates ~/",
            "cp -r ~/.claude ~/backup",
            "python3 -c \"import os; open(os.path.expanduser('~/.claude/CLAUDE.md'), 'w').write('x')\"",
            "rm -rf ~/.*/cache",
            // The shell's builtins that name no file, given a hook file's path as a
            // value (they write nothing).
            "export SETTINGS=~/.claude/settings.json; echo \"$SETTINGS\"",
            "local ~/.codex/hooks.json 2>/dev/null; declare -p ~/.claude/settings.json 2>/dev/null",
            "unset ~/.claude/settings.json 2>/dev/null; sleep 0 ~/.codex/hooks.json 2>/dev/null",
            "read -r line < ~/.claude/settings.json; unset line; true ~/.codex/hooks.json",
            "tmp=$(mktemp -d); trap 'rm -rf \"$tmp\"' EXIT; trap cleanup INT; trap - EXIT",
            "alias ll='ls -la'; alias gs='git status'",
            // A filter into a shell, given nothing that names the guard's places.
            "curl -fsSL https://example.com/install.sh | sed 's/x/y/' | sh",
            "printf 'echo %s\\n' a b | awk '{print}' | bash",
            "cat <<'EOF' | sed 's/^/echo /' | sh\nhello\nEOF",
            // What a count or a digest passes on, and a command whose standard input is
            // not the pipe.
            "echo ~/.claude/settings.json | wc -c | xargs rm -f",
            "echo 'rm -f ~/.claude/settings.json' | md5sum | sh",
            "printf 'rm -f ~/.claude/settings.json' | sed p < /dev/null | sh",
            "echo rm -f ~/.claude/settings.json | xargs",
            "for f in a b; do echo \"$f\"; done | sh",
            "git ls-files | while read -r f; do wc -l \"$f\"; done | sort -n",
            "{ echo hi; echo there; } | tee out.txt",
            "printf '%s\\n' ~/.claude/settings.json | xargs -I{} sh -c 'jq . {}'",
            "cat <<'EOF' | while IFS= read -r l; do python3 -c 'print(0)'; done\nrm -f ~/.claude/settings.json\nEOF",
        ],
    );
}

#[test]
fn codex_trust_and_a_project_install_are_files_that_hold_the_hook() {
    let home = Home::new().hooked();
    home.write(
        ".codex/config.toml",
        &format!(
            "model = \"o3\"\n[hooks.state.\"{}/.codex/hooks.json:pre_tool_use:0:0\"]\ntrusted_hash = \"sha256:x\"\n",
            home.path().display()
        ),
    );
    let hook =
        serde_json::json!({"hooks": {"PreToolUse": [{"hooks": [{"command": "heredoc-guard"}]}]}});
    home.write("project/.claude/settings.local.json", &hook.to_string());
    denied(
        &home,
        &[
            "tee ~/.codex/config.toml < /dev/null",
            "sed -i '/hooks.state/d' ~/.codex/config.toml",
            "rm .claude/settings.local.json",
            "git checkout -- .claude/settings.local.json",
            "rm -rf .claude",
            "cd .. && rm -rf project",
            "git -C .. rm -r project/.claude",
        ],
    );
    passed(
        &home,
        &["cat ~/.codex/config.toml", "rm -rf .claude/commands"],
    );
}

/// Brace expansion makes a word several arguments, and a glob may name any command: the
/// handlers see the words bash runs (round 71). A tilde after an assignment-shaped
/// argument's `=` is bash's `HOME` (`dd of=~/…`).
#[test]
fn braces_globbed_names_and_a_tilde_after_equals_are_read_as_bash_expands_them() {
    let home = Home::new().hooked();
    denied(
        &home,
        &[
            "dd if=/dev/null of=../.claude/settings.{x,json}",
            "dd {if=/dev/null,of=../.claude/settings.json}",
            "dd if=/dev/null of=~/.claude/settings.json",
            "cp {/tmp/x/settings.json,../.claude/}",
            "cp {--target-directory=../.claude,/tmp/x/settings.json}",
            "cp -f {/tmp/x/settings.json,$HOME/.claude/settings.json}",
            "cp {/tmp/x/settings.json,~/.claude/}",
            "ln -sf {/dev/null,../.claude/settings.json}",
            "sed -i{,} 's/hooks/x/' ../.claude/settings.json",
            "install -m644 {/tmp/x/settings.json,../.claude/settings.json}",
            "{cp,/tmp/x/settings.json,../.claude/}",
            "/usr/bin/c[p] /tmp/x/settings.json ../.claude/",
            "c? /tmp/x/settings.json ../.claude/settings.json",
            // Round 72: sequences, quoted braces, globbed wrappers and classes, `~+`,
            // `~-`, more words than the texts are followed to, zsh's `=rm`, `xargs`.
            "rm ../.claude/settings.jso{n..n}",
            "echo x > ../.claude/settings.jso{n..n}",
            "{r..r}m ../.claude/settings.json",
            "cd ../.clau{d..d}e && rm settings.json",
            "rm {\"{\",../.claude/settings.json}",
            "rm {\\{,../.claude/settings.json}",
            "rm ../.claude/{settings.json,\"}\"}",
            "/usr/bin/[e]nv rm ../.claude/settings.json",
            "/usr/bin/time[o]ut 5 rm ../.claude/settings.json",
            "/usr/bin/[[=r=]]m ../.claude/settings.json",
            "/usr/bin/[[:punct:]r]m ../.claude/settings.json",
            "rm ~+/../.claude/settings.json",
            "cd ../.codex && rm ~-/../.claude/settings.json",
            "x=~+/../.claude; rm $x/settings.json",
            &format!(
                "dd if=/dev/null of=../.claude/settings.json{{{}}}",
                ",".repeat(70)
            ),
            &format!(
                "sed -i{{{}}} s/a/b/ ../.claude/settings.json",
                ",".repeat(70)
            ),
            "=rm ../.claude/settings.json",
            "echo ../.claude/settings.json | xargs rm",
            "echo ../.claude/settings.json | /usr/bin/x[a]rgs rm",
            // Round 73: zsh's `noglob`, `~0`, `env -S` with words after it, `env -C`,
            // `cp -rT` onto a directory above the hook file, `xargs -I{}`, a glob echoed
            // to `xargs`, zsh's `>!`, `**`, a tree too wide to expand given to `rm`.
            "noglob rm ../.claude/settings.json",
            "rm ~0/../.claude/settings.json",
            "env -S rm ../.claude/settings.json",
            "env -Srm ../.claude/settings.json",
            "env -C ../.claude rm settings.json",
            "cp -rT /tmp/x ..",
            "echo settings.json | xargs -I{} rm ../.claude/{}",
            "echo ../.claude/settings.* | xargs rm",
            "echo x >! ../.claude/settings.json",
            "rm ../.claude/**/settings.json",
            "rm ../**/settings.json",
            "rm -f {a..z}{a..z}{a..z}/../../.claude/settings.json",
            // Round 74: programs the rule does not know given the file (wrappers it does
            // not know, writers by option), `-t` in a cluster, `find !`, `${HOME%/}`,
            // `$PWD` after `cd`, a redirection glued to the name, `perl -0777pi`, a sed
            // script's `w`, `find -fprint`.
            "flock /tmp/lk rm -f ../.claude/settings.json",
            "strace -o /dev/null rm -f ../.claude/settings.json",
            "ionice --class 3 rm -f ../.claude/settings.json",
            "sort -o ../.claude/settings.json /dev/null",
            "curl -so ../.claude/settings.json file:///dev/null",
            "tar -cf ../.claude/settings.json /dev/null",
            "gzip ../.claude/settings.json",
            "cp -ft ../.claude src/settings.json",
            "cp -t../.claude src/settings.json",
            "install -Dt ../.claude src/settings.json",
            "find .. ! -name x -type f -delete",
            "find -O3 .. -type f -delete",
            "rm -f ${HOME%/}/.claude/settings.json",
            "cd ..; rm -f ${PWD}/.claude/settings.json",
            "rm</dev/null ../.claude/settings.json",
            "perl -0777pi -e 's/.*/{}/s' ../.claude/settings.json",
            "zsh --emulate sh -c 'rm -f ../.claude/settings.json'",
            "sed -n 'w ../.claude/settings.json' /dev/null",
            "find /dev/null -fprint ../.claude/settings.json",
            // Round 75: `xxd` writes its second operand; an unknown program's option glued
            // to its value.
            "xxd -r /tmp/dump ../.claude/settings.json",
            "sort -o../.claude/settings.json /tmp/evil",
            "sort --output=../.claude/settings.json /tmp/evil",
        ],
    );
    passed(
        &home,
        &[
            "cp {a,b}.txt /tmp/out/",
            "dd if=/dev/zero of=~/disk.img bs=1M count=1",
            "ls *.txt {a,b}",
            "./scripts/*.sh",
            "sed -i{,.bak} s/a/b/ src/{main,lib}.rs",
            "rm -f *.{o,a} build/{debug,release}",
            "cp ~/.claude/settings.json{,.bak}",
            "touch {a,b,c}.txt && echo {1..10000}",
            "ls | xargs wc -l",
            "diff ~/.claude/settings.json{,.bak}",
            "rm -f out{1..5000}.txt",
            "find . -name x | xargs -I{} cp {} /tmp/out/",
            "time -p cargo build",
            "cat ../.claude/settings.json | jq .hooks",
            "jq . ../.claude/settings.json && grep -n hooks ../.claude/settings.json",
            "diff ../.claude/settings.json /tmp/x.json && wc -c ../.claude/settings.json",
            "find .. -maxdepth 1 -name *.log -delete",
            "sort package.json | uniq && npm install && git rm --cached x",
            "base64 ../.claude/settings.json && cksum ../.claude/settings.json && tac ../.claude/settings.json",
        ],
    );
}

#[test]
fn a_plain_line_is_read_only_when_it_may_concern_the_guard() {
    let ctx = Home::new().ctx();
    for line in [
        "git status --short && cargo test --quiet 2>&1 | tail -20",
        "ls -la > /dev/null 2>&1",
        "npm test",
        "source venv/bin/activate",
        "sed -n 1,20p src/main.rs",
        "find . -name x",
        "cd ~/.claude",
        "git commit -m x",
        "ls *.txt",
        "wc -l src/{a,b}.rs",
    ] {
        assert!(!super::may_concern(line.as_bytes(), &ctx), "{line}");
    }
    for line in [
        "rm x",
        "if true; then rm x; fi",
        "{ rm x; }",
        "! rm x",
        "</dev/null rm x",
        "2> err rm x",
        "git checkout x",
        "echo hi > f",
        "cargo build >&out",
        "npm uninstall -g heredoc-guard",
        "claude plugin disable heredoc-guard@heredoc-guard",
        "codex features disable hooks",
        "sed -i s/a/b/ f",
        "find ~ -delete",
        "python3 fix.py",
        "heredoc-guard uninstall claude",
        "{cp,/tmp/x/settings.json,.claude/}",
        "/usr/bin/c[p] x .claude/settings.json",
        "sed -i{,} s/a/b/ f",
        "git {checkout,x}",
        "=rm .claude/settings.json",
        "time -p rm x",
        "coproc rm x",
        "function f { rm x; }; f",
        "repeat 1 rm x",
        "{ true } always { rm x }",
    ] {
        assert!(super::may_concern(line.as_bytes(), &ctx), "{line}");
    }
    // A `[` with no `]` after it is no pattern (`[ a ];` repeated to 937 KB matched each
    // against every name the rule knows, and ran into the process's backstop: round 81);
    // a line of more than 64 words written as patterns is read, where the meter bounds it.
    assert!(!super::paths::is_glob("["));
    assert!(!super::paths::is_glob("x["));
    assert!(!super::paths::is_glob("]x["));
    assert!(super::paths::is_glob("[ab]"));
    assert!(super::paths::is_glob("c[p]"));
    assert!(super::paths::is_glob("x?"));
    assert!(!super::may_concern("[ a ];".repeat(3000).as_bytes(), &ctx));
    assert!(!super::may_concern("x[] ;".repeat(64).as_bytes(), &ctx));
    assert!(super::may_concern("x[] ;".repeat(65).as_bytes(), &ctx));
}

#[test]
fn the_guard_s_claude_plugin_is_protected_where_it_is_installed() {
    let home = Home::new();
    let dir = home
        .path()
        .join(".claude/plugins/cache/heredoc-guard/heredoc-guard/0.1.0");
    let hook = serde_json::json!({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "heredoc-guard"}]}]}});
    home.write(
        ".claude/plugins/cache/heredoc-guard/heredoc-guard/0.1.0/hooks/hooks.json",
        &hook.to_string(),
    );
    home.write(
        ".claude/plugins/installed_plugins.json",
        &serde_json::json!({"version": 2, "plugins": {"heredoc-guard@heredoc-guard": [
            {"scope": "user", "installPath": dir, "version": "0.1.0"}]}})
        .to_string(),
    );
    denied(
        &home,
        &[
            "rm -rf ~/.claude/plugins/cache/heredoc-guard",
            "echo '{}' > ~/.claude/plugins/installed_plugins.json",
            "rm -rf ~/.claude/plugins",
        ],
    );
    passed(
        &home,
        &[
            "rm -rf ~/.claude/plugins/cache/other",
            "cat ~/.claude/plugins/installed_plugins.json",
        ],
    );
}

#[test]
fn a_reason_stays_short_however_long_the_paths_and_names() {
    let home = Home::new().hooked();
    let long = "d/".repeat(400);
    for command in [
        format!("rm -rf ~/{long}{}.claude", "../".repeat(400)),
        format!(
            "python3{} -c \"import shutil, os; shutil.rmtree(os.path.expanduser('~/{long}{}.claude'))\"",
            "9".repeat(500),
            "../".repeat(400)
        ),
    ] {
        let reason = home.verdict(&command).expect("denied");
        assert!(reason.chars().count() <= 600, "{reason}");
    }
}

#[test]
fn real_paths_resolved_by_directory_are_the_ones_canonicalize_gives() {
    use std::os::unix::fs::symlink;
    let home = Home::new();
    let root = home.path();
    home.write("a/file", "x");
    home.write("a/b/deep", "x");
    symlink(root.join("a"), root.join("link-dir")).unwrap();
    symlink(root.join("a/file"), root.join("a/link-file")).unwrap();
    symlink("b/../file", root.join("a/relative-link")).unwrap();
    symlink(root.join("nowhere"), root.join("a/dangling")).unwrap();
    symlink(root.join("loop2"), root.join("loop1")).unwrap();
    symlink(root.join("loop1"), root.join("loop2")).unwrap();
    let ctx = home.ctx();
    let places = super::hooks::Places::new(&ctx);
    for rel in [
        "a/file",
        "a/b/deep",
        "a/b",
        "a",
        "link-dir/file",
        "link-dir/b/deep",
        "link-dir/link-file",
        "a/link-file",
        "a/relative-link",
        "a/dangling",
        "a/missing",
        "missing/file",
        "link-dir/missing",
        "loop1",
        "loop1/file",
        "a/file/below-a-file",
    ] {
        // Twice: the second answer comes from the directory already resolved.
        for _ in 0..2 {
            let p = root.join(rel);
            assert_eq!(places.real(&p), std::fs::canonicalize(&p).ok(), "{rel}");
        }
    }
    assert_eq!(
        places.real(std::path::Path::new("/")),
        Some(PathBuf::from("/"))
    );
    // A file through a linked directory resolves to the file itself.
    assert_eq!(
        places.real(&root.join("link-dir/file")),
        Some(root.join("a/file"))
    );
}

/// Round 76: a function the command defines under a reader's name runs in its place; zsh's
/// mapfile module writes any file by name; a subscript a shell evaluates runs its
/// substitution, quoted or not.
#[test]
fn a_reader_redefined_mapfile_and_code_in_a_quoted_subscript_are_denied() {
    let home = Home::new().hooked();
    denied(
        &home,
        &[
            "read() { rm -f \"$1\"; }; read ~/.claude/settings.json",
            "cat() { rm -f \"$1\"; }\ncat ~/.codex/hooks.json",
            "eval 'sleep() { rm -f \"$1\"; }'; sleep ~/.claude/settings.json",
            "function 'true' { rm -f \"$1\"; }; true ~/.claude/settings.json",
            "zmodload zsh/mapfile; unset \"mapfile[$HOME/.claude/settings.json]\"",
            "m=zsh/mapfile; zmodload $m",
            "read 'a[$(rm ~/.claude/settings.json)]' <<< 1",
            "printf -v 'a[`rm ~/.codex/hooks.json`]' 1",
            "let 'x=a[$(rm ~/.claude/settings.json)]'",
            "x='a[$(rm ~/.claude/settings.json)]'; echo $((x))",
            "/bin/cat() { rm -f \"$1\"; }; /bin/cat ~/.claude/settings.json",
            "hash -p /bin/rm cat; cat ~/.claude/settings.json",
            "BASH_CMDS[cat]=/bin/rm; cat ~/.claude/settings.json",
            "a=cat; alias \"$a=rm -f\"\ncat ~/.claude/settings.json",
            "PATH=/tmp/p:$PATH cat ~/.claude/settings.json",
            ". ./defs.sh; cat ~/.claude/settings.json",
            "[[ -v 'a[$(rm ~/.claude/settings.json)]' ]]",
            "[[ 'a[$(rm ~/.claude/settings.json)]' -eq 0 ]]",
            "exec 3<<<'zmodload zsh/mapfile'; . /dev/fd/3; unset \"mapfile[$HOME/.claude/settings.json]\"",
            "module_path=(/tmp/m $module_path); zmodload zsh/x",
            "'ev'al \"$(printf 'ca%s() { rm -f \\\"$1\\\"; }' t)\"; cat ~/.claude/settings.json",
            "\\. ./defs.sh; cat ~/.claude/settings.json",
            "e=eval; $e \"$x\"; cat ~/.claude/settings.json",
            "r=read; $r 'a[$(rm ~/.claude/settings.json)]' <<< 1",
        ],
    );
    passed(
        &home,
        &[
            "grep -n '[$(]' notes.md",
            "echo 'the price is $(cost) [sic]'",
            "zmodload zsh/datetime; echo $EPOCHSECONDS",
            "greet() { echo hi; }; greet; cat ~/.claude/settings.json",
            "grep -n functions ~/.claude/settings.json",
            "git commit -m 'docs: warn against `rm ~/.claude/settings.json` [threat-model]'",
            "gh issue comment 12 --body 'Bypass: `unset \"a[$(rm ~/.claude/settings.json)]\"` is allowed'",
            "git commit --allow-empty -m 'docs [zsh]: `zmodload zsh/mapfile` is now denied'",
            "zmodload -e zsh/mapfile && echo loaded",
            "zmodload -u zsh/mapfile",
            "mapfile -t lines < notes.txt; printf '%s\\n' \"${lines[@]}\"",
        ],
    );
}

/// Round 82: a shell's options read as the shells read them (a cluster's `o` takes the
/// next word, its `s` reads standard input, its `c` takes the first operand), wrappers'
/// options that take values as getopt reads them, standard input however spelled or given
/// back, and every command of a compound command given its input.
#[test]
fn round_82_shell_option_clusters_wrapper_values_and_stdin_spellings_are_read_as_the_shells_do() {
    let home = Home::new().hooked();
    let p = "printf 'rm -f ~/.claude/settings.json'";
    let piped = |tail: &str| format!("{p} | {tail}");
    let mut deny: Vec<String> = [
        // A cluster's `o` takes the next word: the script is not `pipefail`.
        "bash -eo pipefail <<'EOF'\nrm -f ~/.claude/settings.json\nEOF",
        "bash -eo pipefail <<< 'rm -f ~/.claude/settings.json'",
        "bash -euo pipefail -c 'rm -f ~/.claude/settings.json'",
        "sh -es x <<< 'rm -f ~/.claude/settings.json'",
        // A compound command's own input on descriptor `00`, which bash reads as 0.
        "{ sh; } 00<<< 'rm -f ~/.claude/settings.json'",
        "if true; then sh; fi 00<<< 'rm -f ~/.claude/settings.json'",
        "echo ~/.claude/settings.json | { true; env -u X 'xargs' rm; }",
        "echo ~/.claude/settings.json | { true; env -u A -u B -u C -u D -u E xargs rm; }",
    ]
    .map(String::from)
    .to_vec();
    deny.extend(
        [
            "bash -eo pipefail",
            "bash -Oe extglob",
            "sh -eo noglob",
            "zsh -eo noglob",
            "bash -es x",
            "bash -xs x",
            // Wrappers' values, as getopt reads them.
            "ionice -t sh",
            "ionice --class 3 sh",
            "stdbuf --output 0 sh",
            "/usr/bin/time -f %e sh",
            "/usr/bin/time -o /dev/null sh",
            "env -iu X sh",
            "timeout --sig KILL 5 sh",
            "env -S sh",
            // Standard input spelled through `..` or a root.
            "sh /dev/../dev/stdin",
            "sh /proc/self/fd/../fd/0",
            "sh /proc/self/root/dev/stdin",
            "sh ../../dev/stdin",
            "cat < /dev/../dev/stdin | sh",
            // Given back after a redirection.
            "sh 3<&0 </dev/null 0<&3",
            "cat 3<&0 </dev/null 0<&3 | sh",
            // Any command of a group piped into, behind any wrapper's options.
            "{ true; env -u A -u B -u C -u D -u E sh; }",
            "{ true; env -C . -C . -C . -C . -C . sh; }",
            "{ true; env -u X 'sh'; }",
            "{ true; timeout -s KILL 5 \\sh; }",
            "{ true; exec -a x -a x -a x -a x -a x sh; }",
        ]
        .iter()
        .map(|t| piped(t)),
    );
    deny.push(
        "printf 'import os;os.remove(os.path.expanduser(\"~/.claude/settings.json\"))' \
         | { true; python3 -W ignore; }"
            .to_owned(),
    );
    let deny: Vec<&str> = deny.iter().map(String::as_str).collect();
    denied(&home, &deny);
    passed(
        &home,
        &[
            "bash -euo pipefail <<'EOF'\nmake test\nEOF",
            "bash -eo pipefail -c 'cat ~/.claude/settings.json'",
            "printf 'ls\\n' | bash -eo pipefail",
            "printf 'a\\nb\\n' | { read -r x; sh -c 'echo \"$1\"' _ \"$x\"; }",
            "ionice -c3 nice -n 10 make -j2",
            "stdbuf --output 0 grep -n x notes.txt | tee out.txt",
            "/usr/bin/time -f %e make test",
            "cat < /dev/null | sh",
            "printf 'echo hi' | sh 3<&0 </dev/null",
        ],
    );
}

/// Round 82, a second helper on the first's fixes: bash's long options with one dash
/// (`-login`, `-rcfile FILE`), a script read from another descriptor (`/dev/fd/3`), an
/// option name that reads standard input (`-o shinstdin`, dash's `-o stdin`), `env -`, `env
/// -- X=1`, `source -- /dev/stdin`, a relative descriptor.
#[test]
fn round_82_long_options_other_descriptors_and_stdin_by_option_name_are_read_as_the_shells_do() {
    let home = Home::new().hooked();
    let r = "rm ~/.claude/settings.json";
    let e = format!("echo '{r}'");
    let deny = [
        format!("bash -login -c '{r}'"),
        format!("bash -noprofile -c '{r}'"),
        format!("bash -posix -c '{r}'"),
        format!("bash -rcfile /dev/null -c '{r}'"),
        format!("bash -init-file x -c '{r}'"),
        format!("{e} | bash -norc"),
        format!("{e} | bash -rcfile /dev/null"),
        format!("bash /dev/fd/3 3<<<'{r}'"),
        format!("sh /dev/fd/3 3<<'EOF'\n{r}\nEOF"),
        format!("{{ bash /dev/fd/3; }} 3<<<'{r}'"),
        format!(". /dev/fd/3 3<<<'{r}'"),
        format!("{e} | bash /dev/fd/3 3<&0"),
        format!("{e} | source /dev/fd/3 3<&0"),
        format!("{e} | {{ exec 3<&0; bash /dev/fd/3; }}"),
        format!("{e} | bash 3<&0 </dev/fd/3"),
        format!("{e} | bash 3<&0 0</proc/self/fd/3"),
        format!("{e} | zsh -o shinstdin x"),
        format!("{e} | zsh -oshinstdin x"),
        format!("{e} | zsh -o SHIN_STDIN x"),
        format!("{e} | zsh +o noshinstdin x"),
        format!("{e} | zsh --shin-stdin x"),
        format!("{e} | sh -o stdin x"),
        format!("{e} | dash -eo stdin x"),
        "env - sh -c 'rm $HOME/.claude/settings.json'".to_owned(),
        format!("{e} | env - sh"),
        format!("env -- X=1 sh -c '{r}'"),
        format!("{e} | env -i -- HOME=$HOME sh"),
        format!("{e} | source -- /dev/stdin"),
        format!("{e} | (cd /dev/fd && bash 0)"),
    ];
    let deny: Vec<&str> = deny.iter().map(String::as_str).collect();
    denied(&home, &deny);
    passed(
        &home,
        &[
            "bash -login -c 'make test'",
            "bash -rcfile ~/.bashrc -i -c 'cat ~/.claude/settings.json'",
            "echo 'ls' | zsh -o noshinstdin -c 'cat ~/.claude/settings.json'",
            "env - PATH=/usr/bin make",
            "cat /dev/fd/3 3<<<'rm ~/.claude/settings.json'",
        ],
    );
}

/// Round 82, read on: what may run the text a command is given though no shell is named for
/// it: `sudo -s`, `sudo -i` and `doas -s` with no command, a command named at run time, a
/// function the command defines, and `eval` or `sh -c` of a value of no known text in a
/// loop that reads the text.
#[test]
fn round_82_text_given_to_sudo_s_a_computed_name_a_function_or_eval_of_a_read_line_is_a_script() {
    let home = Home::new().hooked();
    let e = "echo 'rm ~/.claude/settings.json'";
    let deny = [
        format!("{e} | sudo -s"),
        format!("{e} | sudo -i"),
        format!("{e} | sudo -u root -s"),
        format!("{e} | doas -s"),
        format!("{e} | \"$SHELL\""),
        format!("f() {{ sh; }}; {e} | f"),
        "function f { sh; }; f <<< 'rm ~/.claude/settings.json'".to_owned(),
        format!("{e} | while read l; do eval \"$l\"; done"),
        format!("{e} | while read l; do sh -c \"$l\"; done"),
        format!("{e} | eval \"$(cat)\""),
    ];
    let deny: Vec<&str> = deny.iter().map(String::as_str).collect();
    denied(&home, &deny);
    passed(
        &home,
        &[
            "printf 'a\\nb\\n' | while read l; do eval \"echo $l\"; done",
            "f() { cat; }; printf 'hi' | f",
            "f() { sh; }; echo 'ls -la' | f",
            "echo hi | sudo tee /etc/motd",
            "printf 'make\\n' | \"$SHELL\"",
        ],
    );
}

/// Round 82, a third helper: `env -S` read as env splits it (its escapes, abbreviations,
/// clusters, options and assignments in the text, `${NAME}`), zsh's `-` precommand
/// modifier, `npx -c`, what a redirection-only `exec` gives every command after it, and
/// text run with input (`… | eval sh`, `… | sh -c 'cat | sh'`).
#[test]
fn round_82_env_split_strings_exec_redirections_and_text_run_with_input_are_followed() {
    let home = Home::new().hooked();
    let r = "rm ~/.claude/settings.json";
    let e = format!("echo '{r}'");
    let deny = [
        "cd ~ && env --sp='rm .claude/settings.json'".to_owned(),
        "env --split 'rm ${HOME}/.claude/settings.json'".to_owned(),
        "env -iS 'rm ${HOME}/.claude/settings.json'".to_owned(),
        "env -S 'rm\\_${HOME}/.claude/settings.json'".to_owned(),
        "env -S 'rm ${HOME}/.claude/settings.json\\c'".to_owned(),
        format!("{e} | env --split-str=sh"),
        format!("{e} | env -S 'A=1 sh'"),
        format!("{e} | env -S '-u X sh'"),
        format!("{e} | env -S 'sh\\_-s'"),
        format!("{e} | S=sh env -S '${{S}}'"),
        format!("true; - sh -c '{r}'"),
        format!("{e} | - sh"),
        format!("npx -c '{r}'"),
        format!("npx --call='{r}'"),
        format!("npm exec -c '{r}'"),
        format!("exec <<<'{r}'; sh"),
        format!("exec 0<<'EOF'\n{r}\nEOF\nbash"),
        format!("exec 3<<<'{r}'; sh <&3"),
        format!("{{ exec <<<'{r}'; sh; }}"),
        format!("{e} | eval sh"),
        format!("eval sh <<< '{r}'"),
        format!("{e} | sh -c 'cat | sh'"),
    ];
    let deny: Vec<&str> = deny.iter().map(String::as_str).collect();
    denied(&home, &deny);
    passed(
        &home,
        &[
            "env -S 'make -j2' test",
            "exec >build.log 2>&1; make",
            "exec 3<<<'rm ~/.claude/settings.json'; read -r line <&3; echo \"$line\"",
            "echo 'ls -la' | sh -c 'cat | sh'",
            "npx -c 'eslint .'",
            "echo 'ls' | eval sh",
        ],
    );
}

/// Round 82, a fourth helper: text given past the nesting limits counts as unread where it
/// may name a place; functions and aliases that may run what they read however defined
/// (after a table write, by `eval`, with a quoted name; `command_not_found_handle`); `env
/// -S` after an option's separate value; a trap's text run with what the shell reads; an
/// `exec` inside `eval`; `npm exec` behind npm's options and as a wrapper.
#[test]
fn round_82_functions_that_run_input_traps_exec_in_eval_and_npm_exec_are_followed() {
    let home = Home::new().hooked();
    let r = "rm ~/.claude/settings.json";
    let e = format!("echo '{r}'");
    let deny = [
        format!("eval eval eval eval eval sh <<<'{r}'"),
        format!("{e} | sh -c 'eval eval eval eval sh'"),
        format!("f() {{ sh; }}; f <<<'{r}' # PATH"),
        format!("eval 'f() {{ sh; }}'; {e} | f"),
        format!("'f'() {{ sh; }}; f <<<'{r}'"),
        format!("command_not_found_handle() {{ sh; }}; nosuchcmd <<<'{r}'"),
        format!("shopt -s expand_aliases; alias f=sh\n{e} | f"),
        "env -u X -S 'rm ${HOME}/.claude/settings.json'".to_owned(),
        "env --unset X -S 'rm ${HOME}/.claude/settings.json'".to_owned(),
        format!("exec <<<'{r}'; trap sh EXIT"),
        format!("{e} | {{ trap sh EXIT; }}"),
        format!("eval \"exec <<<'{r}'\"; sh"),
        format!("npm -y exec -c '{r}'"),
        format!("npm exe -c '{r}'"),
        format!("npm exec --yes -- sh -c '{r}'"),
        "npm x rm ~/.claude/settings.json".to_owned(),
    ];
    let deny: Vec<&str> = deny.iter().map(String::as_str).collect();
    denied(&home, &deny);
    passed(
        &home,
        &[
            "note() { cat >> notes.md; }; note <<'EOF'\nTo enable the hook, edit ~/.claude/settings.json.\nEOF",
            "show() { cat; }; show <<'EOF'\nconfig: ~/.claude/settings.json\nEOF",
            "exec > >(tee build.log) 2>&1; make test",
            "npm exec -- eslint .",
            "trap 'rm -f \"$tmp\"' EXIT; echo hi | cat",
        ],
    );
}

/// Round 82, a fifth helper: code that runs a command and names a hook file (`awk
/// 'BEGIN{system("rm …")}'`), a trap set before the `exec` that changes what the shell
/// reads, a trap's text computed at run time, `exec` behind `command` or `builtin`, `npm
/// exec` after an option's value and `--c`, an alias past its assignments.
#[test]
fn round_82_traps_before_exec_command_running_code_npm_options_and_alias_assignments() {
    let home = Home::new().hooked();
    let r = "rm ~/.claude/settings.json";
    let deny = [
        format!(
            "awk 'BEGIN{{system(\"rm {}/.claude/settings.json\")}}'",
            home.path().display()
        ),
        format!("trap sh EXIT; exec <<<'{r}'"),
        format!("trap 'sh' ERR; exec <<<'{r}'; false"),
        format!("t=sh; trap \"$t\" EXIT; exec <<<'{r}'"),
        format!("command exec <<<'{r}'; sh"),
        format!("builtin exec <<<'{r}'; sh"),
        format!("npm --prefix /tmp exec -c '{r}'"),
        format!("npm exec --package=x --c '{r}'"),
        format!("shopt -s expand_aliases; alias f='A=1 sh'\necho '{r}' | f"),
    ];
    let deny: Vec<&str> = deny.iter().map(String::as_str).collect();
    denied(&home, &deny);
    passed(
        &home,
        &[
            "trap 'rm -f /tmp/x' EXIT; exec 3<<<'data'; cat <&3",
            "npm install x",
            "python3 -c 'import subprocess; subprocess.run([\"ls\"])'",
            "awk 'BEGIN{system(\"date\")}'",
        ],
    );
}

/// A write through a redirection is said as one ("would write PATH through a
/// redirection"), a command's as the command ("would tee PATH").
#[test]
fn a_write_by_the_shell_says_write_and_how_a_command_its_name() {
    let home = Home::new().hooked();
    let settings = home.path().join(".claude/settings.json");
    let says = |command: &str, what: &str| {
        let reason = home.verdict(command).unwrap_or_default();
        assert!(
            reason.contains(&format!(
                "this command would {what}, which holds heredoc-guard's hook:"
            )),
            "{command}: {reason}"
        );
    };
    says(
        "echo '{}' > ~/.claude/settings.json",
        &format!("write {} through a redirection", settings.display()),
    );
    says(
        "ls | tee ~/.claude/settings.json",
        &format!("tee {}", settings.display()),
    );
}

/// A filter that passes its input on (`grep`, `sort`, `tee`) and is given none passes on
/// none, read or not (the walk's fast path); given text it passes that text on to a shell
/// after it, however many stages and groups stand between.
#[test]
fn a_filter_given_no_text_passes_on_none_and_one_given_text_passes_it_on() {
    let home = Home::new().hooked();
    denied(
        &home,
        &[
            "printf 'rm -f ~/.claude/settings.json' | grep rm | sh",
            "printf 'rm -f ~/.claude/settings.json' | { ls | grep rm | sort | sh; }",
            "printf 'rm -f ~/.claude/settings.json' | { true | grep rm | sh; }",
            "echo 'rm -f ~/.claude/settings.json' | cat | tac | head -n 1 | sh",
            "ls | grep x | tee ~/.claude/settings.json",
            "ls | sort -o ~/.claude/settings.json",
            "{ echo 'rm -f ~/.claude/settings.json'; ls | grep x; } | sh",
        ],
    );
    passed(
        &home,
        &[
            "ls -la | grep -v x | wc -l",
            "cd d && ls -la | grep -v x | sort | uniq | wc -l",
            "ls | grep rm | sh",
            "git log | head -n 5 | cut -c1-20",
        ],
    );
}

/// A command whose later words name a printer is read on the slow path, piped or not,
/// given text or not: a function of its name may run them (`grep() { "$@"; }`, `f() {
/// "$@"; }`), and what `printf` makes of them is text the command writes (round 105).
#[test]
fn a_command_whose_later_words_name_a_printer_is_read_for_the_text_it_prints() {
    let home = Home::new().hooked();
    home.write(".codex/config.toml", "[features]\n");
    denied(
        &home,
        &[
            "grep() { \"$@\"; }; grep printf features.codex_hooks=fals%s e | cat >> ~/.codex/config.toml",
            "ls | sort printf features.codex_hooks=fals%s e | tee -a ~/.codex/config.toml",
            // (Not piped, and behind a name the rule does not know: round 105.)
            "grep() { \"$@\"; }; grep printf features.codex_hooks=fals%s e >> ~/.codex/config.toml",
            "f() { \"$@\"; }; f printf features.codex_hooks=fals%s e | cat >> ~/.codex/config.toml",
            "f() { \"$@\"; }; f /usr/bin/printf features.codex_hooks=fals%s e >> ~/.codex/config.toml",
        ],
    );
}
