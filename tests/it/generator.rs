//! A seeded, deterministic generator of heredoc commands for the differential suite, the
//! property tests and the fuzz seeds: outer shapes (every context bash treats specially)
//! x delimiter spellings x body lines. The canary word is placed only inside heredoc
//! bodies, never in visible code, so a shell that runs it ran heredoc text. Every command
//! only ever runs `cat`, `true`, shell builtins and `canary`.

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

/// How the delimiter is spelled. `opener` writes it after `<<`; `closer` is the closing
/// line the shells wait for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Spelling {
    Plain,
    Single,
    Double,
    Backslash,
    PartDouble,
    PartSingle,
    EmptyQuotes,
    Backquoted,
    AnsiC,
    Locale,
    /// `'E\OF'`: a backslash inside single quotes stays.
    SingleWithBackslash,
    /// `"E'OF"`.
    DoubleWithApostrophe,
    /// `"E\OF"`: a backslash before a plain character stays inside double quotes.
    DoubleWithBackslash,
    /// `$(echo X)EOF`: a substitution in the word (not quoting; not expanded).
    WithDollarParen,
    /// `$(echo 'X')EOF`: quotes inside `$(…)` do not quote the delimiter.
    QuoteInDollarParen,
    /// `${X}EOF`.
    WithDollarBrace,
    /// `${X:-'y'}EOF`: quotes inside `${…}` do not quote the delimiter.
    QuoteInDollarBrace,
    /// `$[1]EOF`.
    WithArith,
    /// `` `x`EOF ``: backquotes are not quoting (except to bash 3.2).
    WithBackquote,
    /// `''`: the empty delimiter; the body ends at an empty line.
    Empty,
}

impl Spelling {
    /// Whether bash 5.x keeps a body under this delimiter as data (quoting in the word).
    pub fn quotes_body(self) -> bool {
        matches!(
            self,
            Spelling::Single
                | Spelling::Double
                | Spelling::Backslash
                | Spelling::PartDouble
                | Spelling::PartSingle
                | Spelling::EmptyQuotes
                | Spelling::SingleWithBackslash
                | Spelling::DoubleWithApostrophe
                | Spelling::DoubleWithBackslash
                | Spelling::Empty
        )
    }

    pub const ALL: [Spelling; 20] = [
        Spelling::Plain,
        Spelling::Single,
        Spelling::Double,
        Spelling::Backslash,
        Spelling::PartDouble,
        Spelling::PartSingle,
        Spelling::EmptyQuotes,
        Spelling::Backquoted,
        Spelling::AnsiC,
        Spelling::Locale,
        Spelling::SingleWithBackslash,
        Spelling::DoubleWithApostrophe,
        Spelling::DoubleWithBackslash,
        Spelling::WithDollarParen,
        Spelling::QuoteInDollarParen,
        Spelling::WithDollarBrace,
        Spelling::QuoteInDollarBrace,
        Spelling::WithArith,
        Spelling::WithBackquote,
        Spelling::Empty,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Spelling::Plain => "delim-plain",
            Spelling::Single => "delim-single",
            Spelling::Double => "delim-double",
            Spelling::Backslash => "delim-backslash",
            Spelling::PartDouble => "delim-part-double",
            Spelling::PartSingle => "delim-part-single",
            Spelling::EmptyQuotes => "delim-empty-quotes",
            Spelling::Backquoted => "delim-backquoted",
            Spelling::AnsiC => "delim-ansi-c",
            Spelling::Locale => "delim-locale",
            Spelling::SingleWithBackslash => "delim-single-backslash",
            Spelling::DoubleWithApostrophe => "delim-double-apostrophe",
            Spelling::DoubleWithBackslash => "delim-double-backslash",
            Spelling::WithDollarParen => "delim-dollar-paren",
            Spelling::QuoteInDollarParen => "delim-quote-in-dollar-paren",
            Spelling::WithDollarBrace => "delim-dollar-brace",
            Spelling::QuoteInDollarBrace => "delim-quote-in-dollar-brace",
            Spelling::WithArith => "delim-arith",
            Spelling::WithBackquote => "delim-backquote-part",
            Spelling::Empty => "delim-empty",
        }
    }

    /// The delimiter holds a substitution (closer-like body lines would run it).
    fn has_substitution(self) -> bool {
        matches!(
            self,
            Spelling::Backquoted
                | Spelling::WithDollarParen
                | Spelling::QuoteInDollarParen
                | Spelling::WithBackquote
                | Spelling::WithDollarBrace
                | Spelling::QuoteInDollarBrace
                | Spelling::WithArith
        )
    }

    fn opener(self, word: &str) -> String {
        let (a, b) = word.split_at(1);
        match self {
            Spelling::Plain => word.to_owned(),
            Spelling::Single => format!("'{word}'"),
            Spelling::Double => format!("\"{word}\""),
            Spelling::Backslash => format!("\\{word}"),
            Spelling::PartDouble => format!("{a}\"{b}\""),
            Spelling::PartSingle => format!("'{a}'{b}"),
            Spelling::EmptyQuotes => format!("{word}\"\""),
            Spelling::Backquoted => format!("`{word}`"),
            Spelling::AnsiC => format!("$'{word}'"),
            Spelling::Locale => format!("$\"{word}\""),
            Spelling::SingleWithBackslash => format!("'{a}\\{b}'"),
            Spelling::DoubleWithApostrophe => format!("\"{a}'{b}\""),
            Spelling::DoubleWithBackslash => format!("\"{a}\\{b}\""),
            Spelling::WithDollarParen => format!("$(true){word}"),
            Spelling::QuoteInDollarParen => format!("$(true 'x'){word}"),
            Spelling::WithDollarBrace => format!("${{Y}}{word}"),
            Spelling::QuoteInDollarBrace => format!("${{Y:-'y'}}{word}"),
            Spelling::WithArith => format!("$[1]{word}"),
            Spelling::WithBackquote => format!("`true`{word}"),
            Spelling::Empty => "''".to_owned(),
        }
    }

    /// The closing line (as the shells compare it).
    fn closer(self, word: &str) -> String {
        let (a, b) = word.split_at(1);
        match self {
            Spelling::Backquoted => format!("`{word}`"),
            Spelling::SingleWithBackslash | Spelling::DoubleWithBackslash => format!("{a}\\{b}"),
            Spelling::DoubleWithApostrophe => format!("{a}'{b}"),
            Spelling::WithDollarParen => format!("$(true){word}"),
            Spelling::QuoteInDollarParen => format!("$(true 'x'){word}"),
            Spelling::WithDollarBrace => format!("${{Y}}{word}"),
            Spelling::QuoteInDollarBrace => format!("${{Y:-'y'}}{word}"),
            Spelling::WithArith => format!("$[1]{word}"),
            Spelling::WithBackquote => format!("`true`{word}"),
            Spelling::Empty => String::new(),
            _ => word.to_owned(),
        }
    }
}

/// One generated heredoc.
#[derive(Clone, Debug)]
pub struct Heredoc {
    // Public so the property tests can rewrite a generated case.
    pub word: String,
    pub spelling: Spelling,
    pub strip_tabs: bool,
    /// `<` backslash-newline `<`.
    pub split_operator: bool,
    pub lines: Vec<String>,
    pub closed: bool,
}

impl Heredoc {
    pub fn opener(&self) -> String {
        let op = match (self.split_operator, self.strip_tabs) {
            (false, false) => "<<",
            (false, true) => "<<-",
            (true, false) => "<\\\n<",
            (true, true) => "<\\\n<-",
        };
        format!("{op}{}", self.spelling.opener(&self.word))
    }

    /// The body lines and the closing line, each ending in a newline.
    pub fn body_and_closer(&self) -> String {
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

    /// The closing line without its newline (for shapes that put `)` after it).
    pub fn body_and_closer_no_newline(&self) -> String {
        let mut s = self.body_and_closer();
        if s.ends_with('\n') {
            s.pop();
        }
        s
    }
}

/// Where the heredoc(s) sit. `o` and `b` in the templates are the openers and the
/// bodies-with-closers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    Plain,
    ToFile,
    RedirectFirst,
    FdPrefix,
    Assign,
    AssignCloserParen,
    DoubleQuotedSubst,
    DoubleQuotedAssign,
    NestedDoubleQuoted,
    Pipe,
    PipeBoth,
    AfterAnd,
    AfterSemicolon,
    If,
    WhileCondition,
    While,
    Until,
    For,
    Function,
    FunctionKeyword,
    Case,
    CaseParenPattern,
    CaseWord,
    Two,
    Three,
    Backquotes,
    ProcessSubst,
    InputProcessSubst,
    OutputProcessSubst,
    Subshell,
    SpacedNestedSubshell,
    DoubleParenSubshell,
    SubshellInComsub,
    DeepSubshellInComsub,
    Group,
    ArithCommand,
    ArithFor,
    CondCommand,
    CondExtglob,
    Bang,
    Time,
    Coproc,
    Select,
    ReadingOrder,
    ReadingOrderQuoted,
    FunSub,
    ValSub,
    InsideUnquotedBody,
    AliasHeredoc,
    ExtglobWord,
    BangParen,
    DollarBracketHash,
    QuoteInDollarBraceWord,
    InDefaultValue,
    ArrayAssign,
    ArraySubscript,
    HereString,
    CommentAfter,
    EmptyLineBefore,
    AliasNoShopt,
    AliasSpelled,
    AliasViaEval,
    AliasComment,
    HashReceiver,
    FunctionReceiver,
    ExecInput,
    ReadArith,
    SubstArith,
    IndirectFlow,
    EvalFlow,
    LastArgIndirect,
    UnknownBefore,
    OperatorLineJoined,
}

impl Shape {
    pub const ALL: [Shape; 73] = [
        Shape::Plain,
        Shape::ToFile,
        Shape::RedirectFirst,
        Shape::FdPrefix,
        Shape::Assign,
        Shape::AssignCloserParen,
        Shape::DoubleQuotedSubst,
        Shape::DoubleQuotedAssign,
        Shape::NestedDoubleQuoted,
        Shape::Pipe,
        Shape::PipeBoth,
        Shape::AfterAnd,
        Shape::AfterSemicolon,
        Shape::If,
        Shape::WhileCondition,
        Shape::While,
        Shape::Until,
        Shape::For,
        Shape::Function,
        Shape::FunctionKeyword,
        Shape::Case,
        Shape::CaseParenPattern,
        Shape::CaseWord,
        Shape::Two,
        Shape::Three,
        Shape::Backquotes,
        Shape::ProcessSubst,
        Shape::InputProcessSubst,
        Shape::OutputProcessSubst,
        Shape::Subshell,
        Shape::SpacedNestedSubshell,
        Shape::DoubleParenSubshell,
        Shape::SubshellInComsub,
        Shape::DeepSubshellInComsub,
        Shape::Group,
        Shape::ArithCommand,
        Shape::ArithFor,
        Shape::CondCommand,
        Shape::CondExtglob,
        Shape::Bang,
        Shape::Time,
        Shape::Coproc,
        Shape::Select,
        Shape::ReadingOrder,
        Shape::ReadingOrderQuoted,
        Shape::FunSub,
        Shape::ValSub,
        Shape::InsideUnquotedBody,
        Shape::AliasHeredoc,
        Shape::ExtglobWord,
        Shape::BangParen,
        Shape::DollarBracketHash,
        Shape::QuoteInDollarBraceWord,
        Shape::InDefaultValue,
        Shape::ArrayAssign,
        Shape::ArraySubscript,
        Shape::HereString,
        Shape::CommentAfter,
        Shape::EmptyLineBefore,
        Shape::AliasNoShopt,
        Shape::AliasSpelled,
        Shape::AliasViaEval,
        Shape::AliasComment,
        Shape::HashReceiver,
        Shape::FunctionReceiver,
        Shape::ExecInput,
        Shape::ReadArith,
        Shape::SubstArith,
        Shape::IndirectFlow,
        Shape::EvalFlow,
        Shape::LastArgIndirect,
        Shape::UnknownBefore,
        Shape::OperatorLineJoined,
    ];

    /// Shapes whose heredocs sit at the top level or in compound commands.
    pub const TOP_LEVEL: [Shape; 16] = [
        Shape::Plain,
        Shape::ToFile,
        Shape::RedirectFirst,
        Shape::FdPrefix,
        Shape::Pipe,
        Shape::PipeBoth,
        Shape::AfterAnd,
        Shape::AfterSemicolon,
        Shape::If,
        Shape::While,
        Shape::For,
        Shape::Function,
        Shape::Case,
        Shape::Two,
        Shape::Three,
        Shape::Group,
    ];

    /// How many heredocs the shape holds.
    fn count(self) -> usize {
        match self {
            Shape::Two | Shape::PipeBoth | Shape::ReadingOrder | Shape::ReadingOrderQuoted => 2,
            Shape::Three => 3,
            _ => 1,
        }
    }
}

/// A whole generated command.
#[derive(Clone, Debug)]
pub struct Case {
    pub shape: Shape,
    pub heredocs: Vec<Heredoc>,
    /// Short labels of what went in, for reports.
    pub labels: Vec<&'static str>,
}

const WORDS: [&str; 6] = ["EOF", "END-X", "_1", "EOS", "Z9", "E.O"];

/// Body atoms: (text, label). `D` stands for the delimiter word.
const ATOMS: [(&str, &str); 64] = [
    ("plain text", "text"),
    ("it's \"quoted\"", "quotes"),
    ("# hash", "hash"),
    ("$HOME", "var"),
    ("${HOME}", "braced-var"),
    ("${X:-def}", "default"),
    ("${#HOME}", "length"),
    ("${HOME:0:2}", "substring"),
    ("${HOME//a/b}", "replace"),
    ("$((1 + 2))", "arith"),
    ("$[1 + 2]", "legacy-arith"),
    ("$$(x)", "pid-paren"),
    ("$${x}", "pid-brace"),
    ("$(canary)", "subst"),
    ("`canary`", "backtick"),
    ("\\$(canary)", "escaped-subst"),
    ("\\`canary\\`", "escaped-backtick"),
    ("\\\\$(canary)", "escaped-backslash-subst"),
    ("\\\\\\$(canary)", "escaped-backslash-escaped-subst"),
    ("\"$(canary)\"", "dq-subst"),
    ("'$(canary)'", "sq-subst"),
    ("# $(canary)", "hash-subst"),
    ("${X:-$(canary)}", "default-subst"),
    ("${X:-`canary`}", "default-backtick"),
    ("${X:-'}'}", "quote-in-brace"),
    ("$(( $(canary) + 1 ))", "arith-subst"),
    ("$[ $(canary) + 1 ]", "legacy-arith-subst"),
    ("$\\\n(canary)", "split-dollar"),
    ("$(can\\\nary)", "split-name"),
    ("${\\\nHOME}", "split-brace"),
    ("${ canary; }", "funsub"),
    ("${| canary; }", "valsub"),
    ("${HOME@P}", "prompt-transform"),
    ("$((canary) )", "arith-subshell"),
    ("$((canary) + (canary))", "arith-two-subshells"),
    ("D ", "closer-trailing-space"),
    ("\tD", "closer-leading-tab"),
    (" D", "closer-leading-space"),
    ("D\r", "closer-cr"),
    ("D)", "closer-paren"),
    ("D $(canary) )", "closer-prefix-subst"),
    ("D;canary)", "closer-prefix-command"),
    ("Dx)", "closer-prefix-word"),
    ("ends in backslash\\", "trailing-backslash"),
    (
        "ends in escaped backslash\\\\",
        "trailing-escaped-backslash",
    ),
    ("<(canary)", "procsub-text"),
    ("$'\\x41'", "ansi-text"),
    ("$", "lone-dollar"),
    ("50% off", "percent"),
    ("canary", "bare-canary"),
    ("; canary", "semicolon-canary"),
    ("1) canary", "paren-canary"),
    (")", "lone-close-paren"),
    ("(", "lone-open-paren"),
    ("'", "lone-apostrophe"),
    ("\"", "lone-double-quote"),
    ("`", "lone-backquote"),
    ("a) b \" c", "paren-and-quote"),
    ("case x in x) canary;; esac", "case-text"),
    ("x # ) canary", "comment-paren"),
    ("(( 1 << 2 ))", "shift-text"),
    ("<<X", "operator-text"),
    ("a[$(canary)]", "subscript-subst"),
    ("a[\\$(canary)]", "subscript-escaped-subst"),
];

fn heredoc(rng: &mut Rng, labels: &mut Vec<&'static str>) -> Heredoc {
    let word = (*rng.pick(&WORDS)).to_owned();
    let spelling = if rng.chance(40) {
        Spelling::Plain
    } else if rng.chance(30) {
        *rng.pick(&[Spelling::Single, Spelling::Double, Spelling::Backslash])
    } else {
        *rng.pick(&Spelling::ALL)
    };
    let strip_tabs = rng.chance(15);
    let split_operator = rng.chance(3);
    let mut lines = Vec::new();
    for _ in 0..rng.below(4) + 1 {
        let mut line = String::new();
        for k in 0..rng.below(3) + 1 {
            let (atom, label) = *rng.pick(&ATOMS);
            // Lines that look like the closer only matter as whole lines; with a delimiter
            // holding a substitution they would hold one too.
            if label.starts_with("closer") && (k > 0 || spelling.has_substitution()) {
                continue;
            }
            // With `<<-` a tab-indented closing line is the closing line.
            if strip_tabs && label == "closer-leading-tab" {
                continue;
            }
            labels.push(label);
            if k > 0 {
                line.push(' ');
            }
            line.push_str(&atom.replace('D', &spelling.closer(&word)));
            if label.starts_with("closer") {
                break;
            }
        }
        lines.push(line);
    }
    // Split the closing line with a backslash-newline now and then.
    let closer = spelling.closer(&word);
    if rng.chance(5) && closer.len() >= 2 && !spelling.has_substitution() {
        let (a, b) = closer.split_at(closer.len() / 2);
        lines.push(format!("{a}\\\n{b}"));
        lines.push("canary".to_owned());
        labels.push("split-closer");
    }
    let closed = !rng.chance(3);
    if !closed {
        labels.push("missing-closer");
    }
    if split_operator {
        labels.push("split-operator");
    }
    labels.push(spelling.label());
    Heredoc {
        word,
        spelling,
        strip_tabs,
        split_operator,
        lines,
        closed,
    }
}

/// Generates case number `index` of the run seeded with `seed`.
pub fn case(seed: u64, index: u64) -> Case {
    let mut rng = Rng::new(seed ^ index.wrapping_mul(0xA24B_AED4_963E_E407));
    let shape = *rng.pick(&Shape::ALL);
    let mut labels = Vec::new();
    let heredocs = (0..shape.count())
        .map(|_| heredoc(&mut rng, &mut labels))
        .collect();
    Case {
        shape,
        heredocs,
        labels,
    }
}

impl Case {
    /// Whether the heredocs sit inside `$(…)`, `<(…)` or `>(…)`, where bash 3.2 finds the
    /// end of the substitution by counting parentheses and quotes in the raw text.
    pub fn in_paren_substitution(&self) -> bool {
        matches!(
            self.shape,
            Shape::Assign
                | Shape::AssignCloserParen
                | Shape::DoubleQuotedSubst
                | Shape::DoubleQuotedAssign
                | Shape::NestedDoubleQuoted
                | Shape::CaseWord
                | Shape::ProcessSubst
                | Shape::InputProcessSubst
                | Shape::OutputProcessSubst
                | Shape::SubshellInComsub
                | Shape::DeepSubshellInComsub
                | Shape::ArithCommand
                | Shape::ArithFor
                | Shape::CondCommand
                | Shape::CondExtglob
                | Shape::ReadingOrder
                | Shape::ReadingOrderQuoted
                | Shape::InsideUnquotedBody
                | Shape::ExtglobWord
                | Shape::DollarBracketHash
                | Shape::QuoteInDollarBraceWord
                | Shape::InDefaultValue
                | Shape::ArrayAssign
                | Shape::ArraySubscript
                | Shape::SubstArith
                | Shape::IndirectFlow
                | Shape::EvalFlow
                | Shape::LastArgIndirect
        )
    }

    /// Whether some body holds a `)` that closes nothing opened before it in the body, a
    /// `(` left open, or an odd number of `'` or `"` (what bash 3.2's count sees).
    pub fn body_unbalanced(&self) -> bool {
        self.heredocs.iter().any(|h| {
            let text: String = h.lines.join("\n");
            let mut depth = 0i64;
            for c in text.chars() {
                match c {
                    '(' => depth += 1,
                    ')' => {
                        depth -= 1;
                        if depth < 0 {
                            return true;
                        }
                    }
                    _ => {}
                }
            }
            depth != 0 || text.matches('\'').count() % 2 == 1 || text.matches('"').count() % 2 == 1
        })
    }

    /// The command text.
    pub fn render(&self) -> String {
        let h = &self.heredocs;
        let o = |i: usize| h[i].opener();
        let b = |i: usize| h[i].body_and_closer();
        let (o0, b0) = (o(0), b(0));
        let o0q = o0.replace('\'', "'\\''");
        match self.shape {
            Shape::Plain => format!("cat {o0}\n{b0}"),
            Shape::ToFile => format!("cat > out.txt {o0}\n{b0}"),
            Shape::RedirectFirst => format!("{o0} cat\n{b0}"),
            Shape::FdPrefix => format!("cat 0{o0}\n{b0}"),
            Shape::Assign => format!("x=$(cat {o0}\n{b0})"),
            Shape::AssignCloserParen => {
                format!("x=$(cat {o0}\n{})", h[0].body_and_closer_no_newline())
            }
            Shape::DoubleQuotedSubst => format!("echo \"$(cat {o0}\n{b0})\""),
            Shape::DoubleQuotedAssign => format!("x=\"$(cat {o0}\n{b0})\""),
            Shape::NestedDoubleQuoted => format!("x=$(true \"$(cat {o0}\n{b0})\")"),
            Shape::Pipe => format!("cat {o0} | cat\n{b0}"),
            Shape::PipeBoth => format!("cat {o0} | cat {}\n{b0}{}", o(1), b(1)),
            Shape::AfterAnd => format!("true && cat {o0}\n{b0}"),
            Shape::AfterSemicolon => format!("true; cat {o0}\n{b0}"),
            Shape::If => format!("if true; then\ncat {o0}\n{b0}fi"),
            Shape::WhileCondition => format!("while cat {o0}\n{b0}do break; done"),
            Shape::While => format!("while true; do\ncat {o0}\n{b0}break; done"),
            Shape::Until => format!("until false; do cat {o0}\n{b0}break; done"),
            Shape::For => format!("for i in 1; do\ncat {o0}\n{b0}done"),
            Shape::Function => format!("f() {{\ncat {o0}\n{b0}}}; f"),
            Shape::FunctionKeyword => format!("function f {{ cat {o0}\n{b0}}}; f"),
            Shape::Case => format!("case a in a)\ncat {o0}\n{b0};; esac"),
            Shape::CaseParenPattern => format!("case a in (a) cat {o0}\n{b0};; esac"),
            Shape::CaseWord => format!("case $(cat {o0}\n{b0}) in *) true;; esac"),
            Shape::Two => format!("cat {o0} {}\n{b0}{}", o(1), b(1)),
            Shape::Three => format!("cat {o0} {} {}\n{b0}{}{}", o(1), o(2), b(1), b(2)),
            Shape::Backquotes => format!("x=`cat {o0}\n{b0}`"),
            Shape::ProcessSubst => format!("cat <(cat {o0}\n{b0})"),
            Shape::InputProcessSubst => format!("cat < <(cat {o0}\n{b0})"),
            Shape::OutputProcessSubst => format!("true > >(cat {o0}\n{b0})"),
            Shape::Subshell => format!("( cat {o0}\n{b0})"),
            Shape::SpacedNestedSubshell => format!("( (cat {o0}\n{b0}) )"),
            Shape::DoubleParenSubshell => format!("((cat {o0}\n{b0}) )"),
            Shape::SubshellInComsub => format!("x=$( (cat {o0}\n{b0}) )"),
            Shape::DeepSubshellInComsub => format!("x=$( ( (cat {o0}\n{b0}) ) )"),
            Shape::Group => format!("{{ cat {o0}\n{b0}}}"),
            Shape::ArithCommand => format!("(( $(cat {o0}\n{b0}) ))"),
            Shape::ArithFor => format!("for (( i=$(cat {o0}\n{b0}); i<1; i++ )); do true; done"),
            Shape::CondCommand => format!("[[ $(cat {o0}\n{b0}) == x ]]"),
            Shape::CondExtglob => format!("[[ x == @(a|$(cat {o0}\n{b0})) ]]"),
            Shape::Bang => format!("! cat {o0}\n{b0}"),
            Shape::Time => format!("time cat {o0}\n{b0}"),
            Shape::Coproc => format!("coproc cat {o0}\n{b0}wait"),
            Shape::Select => format!("select x in a; do cat {o0}\n{b0}break; done <<< 1"),
            Shape::ReadingOrder => format!("cat {o0}; echo $(cat {}\n{})\n{b0}", o(1), b(1)),
            Shape::ReadingOrderQuoted => {
                format!("cat {o0} && echo \"$(cat {}\n{})\"\n{b0}", o(1), b(1))
            }
            Shape::FunSub => format!("x=${{ cat {o0}\n{b0}}}"),
            Shape::ValSub => format!("x=${{| cat {o0}\n{b0}}}"),
            Shape::InsideUnquotedBody => format!("cat <<OUTER\n$(true; cat {o0}\n{b0})\nOUTER\n"),
            // The operator inside a single-quoted alias value: its own quotes escaped, so
            // the value is the operator as written (`<<''` stays an empty delimiter).
            Shape::AliasHeredoc => format!("shopt -s expand_aliases\nalias c='cat {o0q}'\nc\n{b0}"),
            Shape::ExtglobWord => format!("echo @(a|$(cat {o0}\n{b0}))"),
            Shape::BangParen => format!("!(cat {o0}\n{b0})"),
            Shape::DollarBracketHash => format!("x=$[2#1 ] y=$(cat {o0}\n{b0})"),
            Shape::QuoteInDollarBraceWord => format!("echo \"${{X:-'}}'}}\" $(cat {o0}\n{b0})"),
            Shape::InDefaultValue => format!("echo ${{X:-$(cat {o0}\n{b0})}}"),
            Shape::ArrayAssign => format!("a=( $(cat {o0}\n{b0}) )"),
            Shape::ArraySubscript => format!("a[$(cat {o0}\n{b0})]=1"),
            Shape::HereString => format!("cat <<< x {o0}\n{b0}"),
            Shape::CommentAfter => format!("cat {o0} # note )\n{b0}"),
            Shape::EmptyLineBefore => format!("\n\ncat {o0}\n{b0}"),
            Shape::AliasNoShopt => format!("alias show='cat {o0q}'\nshow\n{b0}"),
            Shape::AliasSpelled => format!("command -p \\alias show='cat {o0q}'\nshow\n{b0}"),
            Shape::AliasViaEval => format!("eval \"alias show='cat {o0}'\"\nshow\n{b0}"),
            Shape::AliasComment => format!("alias show='cat #'\nshow {o0}\n{b0}"),
            Shape::HashReceiver => format!("hash -p /bin/sh cat\ncat {o0}\n{b0}"),
            Shape::FunctionReceiver => format!("cat() {{ /bin/sh; }}\ncat {o0}\n{b0}"),
            Shape::ExecInput => format!("exec {o0}\n{b0}/bin/sh"),
            Shape::ReadArith => format!("read -r v {o0}\n{b0}: $((v))"),
            Shape::SubstArith => format!("v=$(cat {o0}\n{b0})\n[[ $v -eq 0 ]]"),
            Shape::IndirectFlow => format!("v=$(cat {o0}\n{b0})\n: \"${{!v}}\""),
            Shape::EvalFlow => format!("eval \"$(cat {o0}\n{b0})\""),
            Shape::LastArgIndirect => format!(": \"$(cat {o0}\n{b0})\"\ncat <<X\n${{!_}}\nX"),
            Shape::UnknownBefore => format!("eval \"$(printf %b true)\"\ncat {o0}\n{b0}"),
            Shape::OperatorLineJoined => format!("cat {o0} \\\n{b0}"),
        }
    }
}
