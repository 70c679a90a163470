//! The one module that knows the parser crate (brush-parser). It parses a program and
//! hands back our own types: every heredoc with its delimiter as written, its body and
//! its position, and every word that may hold a nested program. It also answers the word
//! scanner's question of where a `$(` closes.
//!
//! Every call into the parser runs under `catch_unwind`: brush panics on some inputs
//! (`echo 2147483648>x`), and a panic here is a parse failure, never an allow.

use std::panic::{AssertUnwindSafe, catch_unwind};

use brush_parser::ast::{
    self, AndOr, Command, CommandPrefixOrSuffixItem, CompoundCommand, CompoundList,
    ExtendedTestExpr, IoFileRedirectTarget, IoRedirect, RedirectList,
};
use brush_parser::{ParseError, Parser, ParserOptions, TokenizerError};

use crate::words::{ProgramOracle, ScanError};

/// A line and column (1-based, columns in characters) in the text that was parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pos {
    pub line: usize,
    pub column: usize,
}

/// A heredoc as the parser read it.
#[derive(Clone, Debug)]
pub struct ParsedHeredoc {
    /// The delimiter word as written after the operator, quotes included.
    pub here_end: String,
    /// `<<-`: leading tabs are stripped (already stripped from `body`).
    pub strip_tabs: bool,
    /// The body, without the closing line.
    pub body: String,
    /// Where the delimiter word is.
    pub opener: Pos,
    /// The line the body starts on.
    pub body_line: usize,
    /// Inside a `<(…)` / `>(…)` of this program.
    pub in_process_substitution: bool,
    /// Character range of the body and closing line in the parsed text, when known.
    pub span_chars: Option<(usize, usize)>,
}

/// A word (or arithmetic text) that may hold a nested program.
#[derive(Clone, Debug)]
pub struct ParsedWord {
    pub text: String,
    pub pos: Option<Pos>,
    /// Character range of the word in the parsed text, when known.
    pub span_chars: Option<(usize, usize)>,
}

/// What a parse found.
#[derive(Debug, Default)]
pub struct Parsed {
    pub heredocs: Vec<ParsedHeredoc>,
    pub words: Vec<ParsedWord>,
}

/// Why a program could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseFailure {
    /// The parser's message, for the model.
    pub message: String,
    /// A short static cause, for the ledger.
    pub cause: &'static str,
}

fn options() -> ParserOptions {
    ParserOptions {
        // `~<huge number>` makes the word parser panic; we never need tilde pieces.
        tilde_expansion_at_word_start: false,
        ..ParserOptions::default()
    }
}

fn parse_program(src: &str) -> Result<ast::Program, ParseFailure> {
    let opts = options();
    // brush-parser 0.4.0 loops forever on input that ends in a blank while heredocs are
    // pending (`cat <<'' <<y `, found by fuzzing). A final newline changes nothing for
    // the shell, except after a backslash, where it would join lines; those inputs do
    // not end in a blank.
    let owned;
    let src = if src.ends_with('\n') || src.ends_with('\\') {
        src
    } else {
        owned = format!("{src}\n");
        owned.as_str()
    };
    let result = catch_unwind(AssertUnwindSafe(|| {
        Parser::new(src.as_bytes(), &opts).parse_program()
    }));
    match result {
        Ok(Ok(program)) => Ok(program),
        Ok(Err(e)) => Err(describe(&e)),
        Err(_) => Err(ParseFailure {
            message: "the parser failed on this input".to_owned(),
            cause: "parser panic",
        }),
    }
}

fn describe(e: &ParseError) -> ParseFailure {
    let cause = match e {
        ParseError::ParsingNear(_) => "syntax error",
        ParseError::ParsingAtEndOfInput => "syntax error at end of input",
        ParseError::Tokenizing { inner, .. } => match inner {
            TokenizerError::UnterminatedHereDocuments(..) => "heredoc without closing line",
            TokenizerError::MissingHereTag(..) | TokenizerError::MissingHereTagForDocumentBody => {
                "heredoc without delimiter"
            }
            TokenizerError::UnterminatedEscapeSequence
            | TokenizerError::UnterminatedSingleQuote(..)
            | TokenizerError::UnterminatedAnsiCQuote(..)
            | TokenizerError::UnterminatedDoubleQuote(..)
            | TokenizerError::UnterminatedBackquote(..)
            | TokenizerError::UnterminatedExtendedGlob(..)
            | TokenizerError::UnterminatedVariable
            | TokenizerError::UnterminatedCommandSubstitution
            | TokenizerError::UnterminatedExpansion => "unterminated quote or substitution",
            TokenizerError::FailedDecoding | TokenizerError::ReadError(..) => "unreadable input",
        },
    };
    let message = match e {
        ParseError::Tokenizing {
            inner: TokenizerError::UnterminatedHereDocuments(tags, _),
            ..
        } if !tags.is_empty() => format!(
            "heredoc {tags} has no closing line (a closing line is exactly the delimiter: no spaces, no CR)"
        ),
        ParseError::Tokenizing {
            inner: TokenizerError::UnterminatedHereDocuments(..),
            ..
        } => "heredoc has no body or closing line".to_owned(),
        other => other.to_string(),
    };
    ParseFailure { message, cause }
}

/// Unclosed `(` before which brush's PEG grammar backtracks exponentially (time doubles
/// with each one; 26 take seconds). Fewer than this many unmatched `(` bytes cannot
/// trigger it, so the token check below is skipped for them.
const UNCLOSED_PAREN_CHECK: usize = 8;

/// True when the program's operator tokens open more parentheses than they close: a
/// syntax error in bash, and the input on which brush-parser backtracks exponentially.
fn unclosed_parentheses(src: &str) -> bool {
    let raw_open = src.bytes().filter(|&b| b == b'(').count();
    let raw_close = src.bytes().filter(|&b| b == b')').count();
    if raw_open < raw_close + UNCLOSED_PAREN_CHECK {
        return false;
    }
    let tokens = catch_unwind(AssertUnwindSafe(|| brush_parser::tokenize_str(src)));
    let Ok(Ok(tokens)) = tokens else {
        return false; // the parser reports the tokenizer's error itself
    };
    let (mut open, mut close) = (0usize, 0usize);
    for token in &tokens {
        if let brush_parser::Token::Operator(op, _) = token {
            open += op.matches('(').count();
            close += op.matches(')').count();
        }
    }
    open > close
}

/// Parses a program and collects its heredocs and the words that may hold more.
pub fn parse(src: &str) -> Result<Parsed, ParseFailure> {
    if unclosed_parentheses(src) {
        return Err(ParseFailure {
            message: "unbalanced parentheses: more `(` than `)`".to_owned(),
            cause: "syntax error",
        });
    }
    let program = parse_program(src)?;
    let mut walker = Walker::default();
    for list in &program.complete_commands {
        walker.compound_list(list);
    }
    Ok(walker.out)
}

/// Answers the word scanner with real parses, within a budget of attempts.
pub struct Oracle {
    attempts_left: usize,
    /// The last program that closed a substitution, parsed: the caller parses exactly
    /// that text next, and takes it from here instead of parsing it twice.
    last: Option<(String, Parsed)>,
}

impl Oracle {
    pub fn new(attempts: usize) -> Oracle {
        Oracle {
            attempts_left: attempts,
            last: None,
        }
    }

    /// Parses `src`, reusing the parse of the last accepted substitution when it is the same text.
    pub fn parse(&mut self, src: &str) -> Result<Parsed, ParseFailure> {
        match self.last.take() {
            Some((text, parsed)) if text == src => Ok(parsed),
            _ => parse(src),
        }
    }
}

impl ProgramOracle for Oracle {
    fn closes_substitution(&mut self, text: &str) -> Result<bool, ScanError> {
        if self.attempts_left == 0 {
            return Err(ScanError::Budget);
        }
        self.attempts_left -= 1;
        // The same checks as any parse, the unclosed-parenthesis guard included.
        let Ok(parsed) = parse(text) else {
            return Ok(false);
        };
        // The `)` must be an operator, not part of a comment on the last line; without a
        // `#` on that line it cannot be in one, and the second pass is skipped.
        let last_line = text.rfind('\n').map_or(text, |nl| &text[nl + 1..]);
        if !last_line.contains('#') {
            self.last = Some((text.to_owned(), parsed));
            return Ok(true);
        }
        let mut probe = String::with_capacity(text.len() + 1);
        probe.push_str(text);
        probe.push(')');
        let tokens = catch_unwind(AssertUnwindSafe(|| brush_parser::tokenize_str(&probe)));
        let closes = match tokens {
            Ok(Ok(tokens)) => matches!(
                tokens.last(),
                Some(brush_parser::Token::Operator(op, _)) if op == ")"
            ),
            Ok(Err(_)) | Err(_) => false,
        };
        if closes {
            self.last = Some((text.to_owned(), parsed));
        }
        Ok(closes)
    }
}

fn pos_of(word: &ast::Word) -> Option<Pos> {
    word.loc.as_ref().map(|span| Pos {
        line: span.start.line,
        column: span.start.column,
    })
}

/// Walks the AST. Every match is exhaustive: a new node type in the parser is a compile
/// error here, not a silent skip.
#[derive(Default)]
struct Walker {
    out: Parsed,
    process_substitution_depth: usize,
}

impl Walker {
    fn in_procsub(&self) -> bool {
        self.process_substitution_depth > 0
    }

    fn word(&mut self, word: &ast::Word) {
        let span = word.loc.as_ref().map(|s| (s.start.index, s.end.index));
        self.push_text(&word.value, pos_of(word), span);
    }

    fn text(&mut self, text: &str, pos: Option<Pos>) {
        self.push_text(text, pos, None);
    }

    fn push_text(&mut self, text: &str, pos: Option<Pos>, span_chars: Option<(usize, usize)>) {
        if crate::words::may_hold_heredoc(text) {
            self.out.words.push(ParsedWord {
                text: text.to_owned(),
                pos,
                span_chars,
            });
        }
    }

    fn compound_list(&mut self, list: &CompoundList) {
        for item in &list.0 {
            let and_or = &item.0;
            self.pipeline(&and_or.first);
            for next in &and_or.additional {
                match next {
                    AndOr::And(p) | AndOr::Or(p) => self.pipeline(p),
                }
            }
        }
    }

    fn pipeline(&mut self, pipeline: &ast::Pipeline) {
        for command in &pipeline.seq {
            self.command(command);
        }
    }

    fn command(&mut self, command: &Command) {
        match command {
            Command::Simple(simple) => {
                if let Some(prefix) = &simple.prefix {
                    for item in &prefix.0 {
                        self.item(item);
                    }
                }
                if let Some(name) = &simple.word_or_name {
                    self.word(name);
                }
                if let Some(suffix) = &simple.suffix {
                    for item in &suffix.0 {
                        self.item(item);
                    }
                }
            }
            Command::Compound(compound, redirects) => {
                self.compound(compound);
                self.redirects(redirects.as_ref());
            }
            Command::Function(def) => {
                self.word(&def.fname);
                self.compound(&def.body.0);
                self.redirects(def.body.1.as_ref());
            }
            Command::ExtendedTest(test, redirects) => {
                self.extended_test(&test.expr);
                self.redirects(redirects.as_ref());
            }
        }
    }

    fn compound(&mut self, compound: &CompoundCommand) {
        match compound {
            CompoundCommand::Arithmetic(a) => self.text(&a.expr.value, None),
            CompoundCommand::ArithmeticForClause(f) => {
                for expr in [&f.initializer, &f.condition, &f.updater]
                    .into_iter()
                    .flatten()
                {
                    self.text(&expr.value, None);
                }
                self.compound_list(&f.body.list);
            }
            CompoundCommand::BraceGroup(g) => self.compound_list(&g.list),
            CompoundCommand::Subshell(s) => self.compound_list(&s.list),
            CompoundCommand::ForClause(f) => {
                for w in f.values.iter().flatten() {
                    self.word(w);
                }
                self.compound_list(&f.body.list);
            }
            CompoundCommand::CaseClause(c) => {
                self.word(&c.value);
                for item in &c.cases {
                    for p in &item.patterns {
                        self.word(p);
                    }
                    if let Some(cmd) = &item.cmd {
                        self.compound_list(cmd);
                    }
                }
            }
            CompoundCommand::IfClause(i) => {
                self.compound_list(&i.condition);
                self.compound_list(&i.then);
                for e in i.elses.iter().flatten() {
                    if let Some(c) = &e.condition {
                        self.compound_list(c);
                    }
                    self.compound_list(&e.body);
                }
            }
            CompoundCommand::WhileClause(w) | CompoundCommand::UntilClause(w) => {
                self.compound_list(&w.0);
                self.compound_list(&w.1.list);
            }
            CompoundCommand::Coprocess(c) => {
                if let Some(name) = &c.name {
                    self.word(name);
                }
                self.command(&c.body);
            }
        }
    }

    fn item(&mut self, item: &CommandPrefixOrSuffixItem) {
        match item {
            CommandPrefixOrSuffixItem::IoRedirect(r) => self.redirect(r),
            CommandPrefixOrSuffixItem::Word(w) => self.word(w),
            CommandPrefixOrSuffixItem::AssignmentWord(_, whole) => {
                // The whole `name[index]=value` word holds the name's index, the value and
                // every array element (brush rebuilds arrays with single spaces between
                // elements, keeping each element's text); walking the parsed parts too
                // would report each heredoc twice.
                self.word(whole);
            }
            CommandPrefixOrSuffixItem::ProcessSubstitution(_, subshell) => {
                self.process_substitution(subshell);
            }
        }
    }

    fn process_substitution(&mut self, subshell: &ast::SubshellCommand) {
        self.process_substitution_depth += 1;
        self.compound_list(&subshell.list);
        self.process_substitution_depth -= 1;
    }

    fn redirects(&mut self, list: Option<&RedirectList>) {
        for r in list.iter().flat_map(|l| l.0.iter()) {
            self.redirect(r);
        }
    }

    fn redirect(&mut self, redirect: &IoRedirect) {
        match redirect {
            IoRedirect::File(_, _, target) => match target {
                IoFileRedirectTarget::Filename(w) | IoFileRedirectTarget::Duplicate(w) => {
                    self.word(w)
                }
                IoFileRedirectTarget::Fd(_) => {}
                IoFileRedirectTarget::ProcessSubstitution(_, subshell) => {
                    self.process_substitution(subshell);
                }
            },
            IoRedirect::HereDocument(_, doc) => {
                let opener = pos_of(&doc.here_end).unwrap_or(Pos { line: 1, column: 1 });
                let body_line = doc
                    .doc
                    .loc
                    .as_ref()
                    .map_or(opener.line + 1, |span| span.start.line);
                self.out.heredocs.push(ParsedHeredoc {
                    here_end: doc.here_end.value.clone(),
                    strip_tabs: doc.remove_tabs,
                    body: doc.doc.value.clone(),
                    opener,
                    body_line,
                    in_process_substitution: self.in_procsub(),
                    span_chars: doc.doc.loc.as_ref().map(|s| (s.start.index, s.end.index)),
                });
            }
            IoRedirect::HereString(_, w) | IoRedirect::OutputAndError(w, _) => self.word(w),
        }
    }

    fn extended_test(&mut self, expr: &ExtendedTestExpr) {
        match expr {
            ExtendedTestExpr::And(a, b) | ExtendedTestExpr::Or(a, b) => {
                self.extended_test(a);
                self.extended_test(b);
            }
            ExtendedTestExpr::Not(a) | ExtendedTestExpr::Parenthesized(a) => self.extended_test(a),
            ExtendedTestExpr::UnaryTest(_, w) => self.word(w),
            ExtendedTestExpr::BinaryTest(_, a, b) => {
                self.word(a);
                self.word(b);
            }
        }
    }
}
