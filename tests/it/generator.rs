//! A seeded, deterministic generator of heredoc commands for the differential suite and
//! the property tests: outer shapes x delimiter spellings x body atoms. Every command only
//! ever runs `cat`, `true`, shell builtins and `canary`.

/// splitmix64: small, seeded, deterministic.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    pub fn pick<'a, T>(&mut self, items: &'a [T]) -> &'a T {
        &items[self.below(items.len())]
    }

    pub fn chance(&mut self, percent: usize) -> bool {
        self.below(100) < percent
    }
}

/// How the delimiter is spelled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    Plain,
    Single,
    Double,
    Backslash,
    PartDouble,
    EmptyQuotes,
    Backquoted,
    AnsiC,
}

impl Spelling {
    pub const ALL: [Spelling; 8] = [
        Spelling::Plain,
        Spelling::Single,
        Spelling::Double,
        Spelling::Backslash,
        Spelling::PartDouble,
        Spelling::EmptyQuotes,
        Spelling::Backquoted,
        Spelling::AnsiC,
    ];

    fn write(self, word: &str) -> String {
        match self {
            Spelling::Plain => word.to_owned(),
            Spelling::Single => format!("'{word}'"),
            Spelling::Double => format!("\"{word}\""),
            Spelling::Backslash => format!("\\{word}"),
            Spelling::PartDouble => {
                let (a, b) = word.split_at(1);
                format!("{a}\"{b}\"")
            }
            Spelling::EmptyQuotes => format!("{word}\"\""),
            Spelling::Backquoted => format!("`{word}`"),
            Spelling::AnsiC => format!("$'{word}'"),
        }
    }

    /// The closing line the shell waits for.
    fn closer(self, word: &str) -> String {
        match self {
            Spelling::Backquoted => format!("`{word}`"),
            _ => word.to_owned(),
        }
    }
}

/// One generated heredoc.
#[derive(Clone, Debug)]
pub struct Heredoc {
    // Fields are public so the property tests can rewrite a generated case.
    pub word: String,
    pub spelling: Spelling,
    pub strip_tabs: bool,
    pub lines: Vec<String>,
    pub closed: bool,
}

impl Heredoc {
    fn opener(&self) -> String {
        let op = if self.strip_tabs { "<<-" } else { "<<" };
        format!("{op}{}", self.spelling.write(&self.word))
    }

    fn body_and_closer(&self) -> String {
        let tab = if self.strip_tabs { "\t" } else { "" };
        let mut s = String::new();
        for l in &self.lines {
            s.push_str(tab);
            s.push_str(l);
            s.push('\n');
        }
        if self.closed {
            s.push_str(tab);
            s.push_str(&self.spelling.closer(&self.word));
            s.push('\n');
        }
        s
    }
}

/// Where the heredoc(s) sit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Plain,
    ToFile,
    Assign,
    DoubleQuotedSubst,
    Pipe,
    AfterAnd,
    AfterSemicolon,
    If,
    While,
    For,
    Function,
    Case,
    Two,
    Three,
    Backquotes,
    ProcessSubst,
    InsideUnquotedBody,
}

impl Shape {
    pub const ALL: [Shape; 17] = [
        Shape::Plain,
        Shape::ToFile,
        Shape::Assign,
        Shape::DoubleQuotedSubst,
        Shape::Pipe,
        Shape::AfterAnd,
        Shape::AfterSemicolon,
        Shape::If,
        Shape::While,
        Shape::For,
        Shape::Function,
        Shape::Case,
        Shape::Two,
        Shape::Three,
        Shape::Backquotes,
        Shape::ProcessSubst,
        Shape::InsideUnquotedBody,
    ];

    /// How many heredocs the shape holds.
    fn count(self) -> usize {
        match self {
            Shape::Two => 2,
            Shape::Three => 3,
            _ => 1,
        }
    }

    pub fn bash_only(self) -> bool {
        matches!(self, Shape::ProcessSubst)
    }
}

/// A whole generated command.
#[derive(Clone, Debug)]
pub struct Case {
    pub shape: Shape,
    pub heredocs: Vec<Heredoc>,
    /// Uses syntax zsh does not share (skip zsh).
    pub bash_only: bool,
    /// Short labels of what went in, for reports.
    pub labels: Vec<&'static str>,
}

const WORDS: [&str; 5] = ["EOF", "END-X", "_1", "EOS", "Z9"];

/// Body atoms: (text, label, bash_only). `D` stands for the delimiter word.
const ATOMS: [(&str, &str, bool); 44] = [
    ("plain text", "text", false),
    ("it's \"quoted\"", "quotes", false),
    ("# hash", "hash", false),
    ("$HOME", "var", false),
    ("${HOME}", "braced-var", false),
    ("${X:-def}", "default", false),
    ("${#HOME}", "length", false),
    ("${HOME:0:2}", "substring", false),
    ("${HOME//a/b}", "replace", false),
    ("$((1 + 2))", "arith", false),
    ("$[1 + 2]", "legacy-arith", false),
    ("$$(x)", "pid-paren", false),
    ("$(canary)", "subst", false),
    ("`canary`", "backtick", false),
    ("\\$(canary)", "escaped-subst", false),
    ("\\`canary\\`", "escaped-backtick", false),
    ("\\\\$(canary)", "escaped-backslash-subst", false),
    ("\\\\\\$(canary)", "escaped-backslash-escaped-subst", false),
    ("\"$(canary)\"", "dq-subst", false),
    ("'$(canary)'", "sq-subst", false),
    ("# $(canary)", "hash-subst", false),
    ("${X:-$(canary)}", "default-subst", false),
    ("${X:-`canary`}", "default-backtick", false),
    ("$(( $(canary) + 1 ))", "arith-subst", false),
    ("$[ $(canary) + 1 ]", "legacy-arith-subst", false),
    ("$\\\n(canary)", "split-dollar", false),
    ("$(can\\\nary)", "split-name", false),
    ("${\\\nHOME}", "split-brace", false),
    ("${ canary; }", "funsub", true),
    ("${| canary; }", "valsub", true),
    ("${HOME@P}", "prompt-transform", true),
    ("$((canary) )", "arith-subshell", false),
    ("D ", "closer-trailing-space", false),
    ("\tD", "closer-leading-tab", false),
    (" D", "closer-leading-space", false),
    ("D\r", "closer-cr", false),
    ("D)", "closer-paren", false),
    ("D $(canary) )", "closer-prefix-subst", false),
    ("ends in backslash\\", "trailing-backslash", false),
    (
        "ends in escaped backslash\\\\",
        "trailing-escaped-backslash",
        false,
    ),
    ("<(canary)", "procsub-text", false),
    ("$'\\x41'", "ansi-text", false),
    ("$", "lone-dollar", false),
    ("50% off", "percent", false),
];

fn heredoc(rng: &mut Rng, labels: &mut Vec<&'static str>, bash_only: &mut bool) -> Heredoc {
    let word = (*rng.pick(&WORDS)).to_owned();
    let spelling = if rng.chance(45) {
        Spelling::Plain
    } else {
        *rng.pick(&Spelling::ALL)
    };
    let strip_tabs = rng.chance(15);
    let mut lines = Vec::new();
    for _ in 0..rng.below(4) + 1 {
        let mut line = String::new();
        for k in 0..rng.below(3) + 1 {
            let (atom, label, only) = *rng.pick(&ATOMS);
            // Lines that look like the closer only matter as whole lines.
            if label.starts_with("closer") && k > 0 {
                continue;
            }
            labels.push(label);
            *bash_only |= only;
            if k > 0 {
                line.push(' ');
            }
            line.push_str(&atom.replace('D', &word));
            if label.starts_with("closer") {
                break;
            }
        }
        lines.push(line);
    }
    // Split the delimiter line with a backslash-newline now and then.
    if rng.chance(5) {
        let (a, b) = word.split_at(word.len() / 2);
        lines.push(format!("{a}\\\n{b}"));
        lines.push("canary".to_owned());
        labels.push("split-closer");
    }
    let closed = !rng.chance(3);
    if !closed {
        labels.push("missing-closer");
    }
    labels.push(match spelling {
        Spelling::Plain => "delim-plain",
        Spelling::Single => "delim-single",
        Spelling::Double => "delim-double",
        Spelling::Backslash => "delim-backslash",
        Spelling::PartDouble => "delim-part",
        Spelling::EmptyQuotes => "delim-empty-quotes",
        Spelling::Backquoted => "delim-backquoted",
        Spelling::AnsiC => "delim-ansi-c",
    });
    Heredoc {
        word,
        spelling,
        strip_tabs,
        lines,
        closed,
    }
}

/// Generates case number `index` of the run seeded with `seed`.
pub fn case(seed: u64, index: u64) -> Case {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407));
    let shape = *rng.pick(&Shape::ALL);
    let mut labels = Vec::new();
    let mut bash_only = shape.bash_only();
    let heredocs = (0..shape.count())
        .map(|_| heredoc(&mut rng, &mut labels, &mut bash_only))
        .collect();
    Case {
        shape,
        heredocs,
        bash_only,
        labels,
    }
}

impl Case {
    /// The command text.
    pub fn render(&self) -> String {
        let h = &self.heredocs;
        let one = |i: usize| (h[i].opener(), h[i].body_and_closer());
        let (o, b) = one(0);
        match self.shape {
            Shape::Plain => format!("cat {o}\n{b}"),
            Shape::ToFile => format!("cat > out.txt {o}\n{b}"),
            Shape::Assign => format!("x=$(cat {o}\n{b})"),
            Shape::DoubleQuotedSubst => format!("echo \"$(cat {o}\n{b})\""),
            Shape::Pipe => format!("cat {o} | cat\n{b}"),
            Shape::AfterAnd => format!("true && cat {o}\n{b}"),
            Shape::AfterSemicolon => format!("true; cat {o}\n{b}"),
            Shape::If => format!("if true; then\ncat {o}\n{b}fi"),
            Shape::While => format!("while true; do\ncat {o}\n{b}break; done"),
            Shape::For => format!("for i in 1; do\ncat {o}\n{b}done"),
            Shape::Function => format!("f() {{\ncat {o}\n{b}}}; f"),
            Shape::Case => format!("case a in a)\ncat {o}\n{b};; esac"),
            Shape::Two => {
                let (o2, b2) = one(1);
                format!("cat {o} {o2}\n{b}{b2}")
            }
            Shape::Three => {
                let (o2, b2) = one(1);
                let (o3, b3) = one(2);
                format!("cat {o} {o2} {o3}\n{b}{b2}{b3}")
            }
            Shape::Backquotes => format!("x=`cat {o}\n{b}`"),
            Shape::ProcessSubst => format!("cat <(cat {o}\n{b})"),
            Shape::InsideUnquotedBody => format!("cat <<OUTER\n$(canary; cat {o}\n{b})\nOUTER\n"),
        }
    }
}
