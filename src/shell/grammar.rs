//! bash's grammar (parse.y's yacc rules), as a recursive-descent parser over the tokens
//! of lexer.rs: just enough structure to know which tokens are code, where heredoc
//! operators and their delimiters are, and which words are expanded. Tokens are read in
//! the order bison reads them (one token of lookahead), so the lexer state that depends
//! on the last tokens read is bash's.

use super::lexer::{Pending, R, Reader, Tok};
use super::syntax::{PST_CONDCMD, PST_EXTPAT, PST_REDIRLIST, PST_REGEXP};
use super::tree::Word;
use super::tree::{Compound, Event, RedirOp, Redirect, SimpleCommand};

/// `[[ ]]` unary operators (`test_unop`).
fn test_unop(w: &[u8]) -> bool {
    matches!(w, [b'-', c] if b"abcdefghknoprstuvwxzGLNORS".contains(c))
}

/// `[[ ]]` binary operators (`test_binop`), without `=~`: `test`'s too.
pub(crate) fn test_binop(w: &[u8]) -> bool {
    matches!(
        w,
        b"=" | b"=="
            | b"!="
            | b"<"
            | b">"
            | b"-nt"
            | b"-ot"
            | b"-ef"
            | b"-eq"
            | b"-ne"
            | b"-lt"
            | b"-le"
            | b"-gt"
            | b"-ge"
    )
}

pub(super) fn is_redirection_op(t: Tok) -> bool {
    matches!(
        t,
        Tok::Char(b'<' | b'>')
            | Tok::GreaterGreater
            | Tok::GreaterBar
            | Tok::LessGreater
            | Tok::LessLess
            | Tok::LessLessMinus
            | Tok::LessLessLess
            | Tok::LessAnd
            | Tok::GreaterAnd
            | Tok::AndGreater
            | Tok::AndGreaterGreater
    )
}

fn starts_shell_command(t: Tok) -> bool {
    matches!(
        t,
        Tok::For
            | Tok::Case
            | Tok::While
            | Tok::Until
            | Tok::Select
            | Tok::If
            | Tok::Char(b'(')
            | Tok::LBrace
            | Tok::ArithCmd
            | Tok::CondStart
    )
}

fn starts_command(t: Tok) -> bool {
    starts_shell_command(t)
        || is_redirection_op(t)
        || matches!(
            t,
            Tok::Word
                | Tok::AssignmentWord
                | Tok::Number
                | Tok::RedirWord
                | Tok::Bang
                | Tok::Time
                | Tok::Function
                | Tok::Coproc
        )
}

fn is_list_terminator(t: Tok) -> bool {
    matches!(t, Tok::Char(b'\n' | b';') | Tok::Eof)
}

impl Reader<'_, '_> {
    /// The next token, without consuming it (bison's lookahead).
    fn peek(&mut self) -> R<Tok> {
        if let Some((t, _)) = &self.peeked {
            return Ok(*t);
        }
        let t = self.yylex()?;
        let w = matches!(
            t,
            Tok::Word | Tok::AssignmentWord | Tok::RedirWord | Tok::Number
        )
        .then(|| self.take_word());
        self.peeked = Some((t, w));
        Ok(t)
    }

    /// The last token's word, taken: the lexer keeps only where it stood (what it looks
    /// back at), so the word's text is moved, not copied.
    fn take_word(&mut self) -> Word {
        let stays = Word {
            start: self.word.start,
            end: self.word.end,
            ..Word::empty()
        };
        std::mem::replace(&mut self.word, stays)
    }

    /// The next token, consumed, with its word.
    fn next(&mut self) -> R<(Tok, Option<Word>)> {
        if let Some(p) = self.peeked.take() {
            return Ok(p);
        }
        let t = self.yylex()?;
        let w = matches!(
            t,
            Tok::Word | Tok::AssignmentWord | Tok::RedirWord | Tok::Number
        )
        .then(|| self.take_word());
        Ok((t, w))
    }

    fn expect(&mut self, want: Tok, what: &'static str) -> R<()> {
        let (t, _) = self.next()?;
        if t == want {
            Ok(())
        } else {
            Err(self.err(what))
        }
    }

    fn syntax(&self) -> super::ReadError {
        self.err("syntax error")
    }

    /// The whole text, one complete command (bash's `inputunit`) at a time. bash runs each
    /// before it reads the next, so when a later one fails, what came before still ran:
    /// what a failing command recorded is dropped, what came before is kept.
    pub fn read_program(&mut self) -> R<()> {
        loop {
            let mark = (
                self.out.exec.len(),
                self.out.heredocs.len(),
                self.out.events.len(),
            );
            match self.inputunit() {
                Ok(more) => {
                    self.unit_done(mark.2);
                    if !more {
                        return Ok(());
                    }
                }
                Err(e) => {
                    // bash never runs a command it could not read; zsh reads the whole
                    // text first and runs nothing when it cannot.
                    if e.limit.is_none() {
                        self.out.exec.truncate(mark.0);
                        self.out.heredocs.truncate(mark.1);
                        self.out.events.truncate(mark.2);
                    }
                    if e.discard && e.limit.is_none() && self.d.drops_bad_line() {
                        // bash reports it, drops the line, and reads on.
                        self.reset_parser();
                        continue;
                    }
                    return Err(e);
                }
            }
        }
    }

    /// One `inputunit`; false at the end of the text.
    fn inputunit(&mut self) -> R<bool> {
        match self.peek()? {
            Tok::Eof => {
                self.next()?;
                Ok(false)
            }
            Tok::Char(b'\n') => {
                self.next()?;
                Ok(true)
            }
            _ => {
                self.simple_list()?;
                match self.next()?.0 {
                    Tok::Char(b'\n') => Ok(true),
                    Tok::Eof => Ok(false),
                    _ => Err(self.syntax()),
                }
            }
        }
    }

    /// `simple_list`: commands joined by `&&`, `||`, `;`, `&` on one line.
    fn simple_list(&mut self) -> R<()> {
        self.pipeline_command()?;
        loop {
            match self.peek()? {
                Tok::AndAnd | Tok::OrOr => {
                    self.next()?;
                    self.newline_list()?;
                    self.pipeline_command()?;
                }
                Tok::Char(b';' | b'&') => {
                    self.next()?;
                    let t = self.peek()?;
                    if matches!(t, Tok::Char(b'\n') | Tok::Eof) {
                        if !self.need_here_doc.is_empty() {
                            self.gather_here_documents()?;
                        }
                        return Ok(());
                    }
                    self.pipeline_command()?;
                }
                _ => {
                    if !self.need_here_doc.is_empty() {
                        self.gather_here_documents()?;
                    }
                    return Ok(());
                }
            }
        }
    }

    fn newline_list(&mut self) -> R<()> {
        while self.peek()? == Tok::Char(b'\n') {
            self.next()?;
        }
        Ok(())
    }

    /// `compound_list`: a list with newlines as separators, as inside `{ }`, `( )`,
    /// `if`, loops and command substitutions.
    fn compound_list(&mut self) -> R<()> {
        self.newline_list()?;
        self.pipeline_command()?;
        loop {
            match self.peek()? {
                Tok::AndAnd | Tok::OrOr => {
                    self.next()?;
                    self.newline_list()?;
                    self.pipeline_command()?;
                }
                Tok::Char(b';' | b'&' | b'\n') => {
                    self.next()?;
                    self.newline_list()?;
                    if !starts_command(self.peek()?) {
                        break;
                    }
                    self.pipeline_command()?;
                }
                _ => break,
            }
        }
        if !self.need_here_doc.is_empty() && self.last_read_token == Tok::Char(b'\n') {
            self.gather_here_documents()?;
        }
        Ok(())
    }

    /// `pipeline_command`: `!` and `time` before a pipeline (the grammar's right
    /// recursion, read as a loop: `! ! ! …` nests nothing).
    fn pipeline_command(&mut self) -> R<()> {
        loop {
            match self.peek()? {
                Tok::Bang => {
                    self.next()?;
                }
                Tok::Time => {
                    self.next()?;
                    if self.peek()? == Tok::TimeOpt {
                        self.next()?;
                    }
                    if self.peek()? == Tok::TimeIgn {
                        self.next()?;
                    }
                }
                _ => return self.pipeline(),
            }
            if is_list_terminator(self.peek()?) {
                return Ok(());
            }
        }
    }

    fn pipeline(&mut self) -> R<()> {
        self.command()?;
        while let t @ (Tok::Char(b'|') | Tok::BarAnd) = self.peek()? {
            self.next()?;
            self.out.events.push(Event::Pipe {
                stderr: t == Tok::BarAnd,
            });
            self.newline_list()?;
            self.command()?;
        }
        Ok(())
    }

    fn command(&mut self) -> R<()> {
        let t = self.peek()?;
        if starts_shell_command(t) {
            self.shell_command()?;
            return self.redirection_list();
        }
        match t {
            Tok::Function => {
                let at = self.tok_at;
                self.next()?;
                let (w, name) = self.next()?;
                let Some(name) = name.filter(|_| w == Tok::Word) else {
                    return Err(self.syntax());
                };
                self.out
                    .events
                    .push(Event::Open(Compound::Function(Box::new(name)), at));
                match self.peek()? {
                    Tok::Char(b'(') => {
                        self.next()?;
                        self.expect(Tok::Char(b')'), "syntax error in a function definition")?;
                        self.newline_list()?;
                    }
                    Tok::Char(b'\n') => self.newline_list()?,
                    _ => {}
                }
                self.function_body()?;
                self.close();
                Ok(())
            }
            Tok::Coproc => {
                let at = self.tok_at;
                self.next()?;
                self.out.events.push(Event::Open(Compound::Coproc, at));
                let r = self.coproc();
                self.close();
                r
            }
            Tok::Word => {
                let at = self.tok_at;
                let (_, w) = self.next()?;
                if self.peek()? == Tok::Char(b'(') {
                    // A function definition: NAME ( ) body.
                    if let Some(name) = &w {
                        self.out
                            .events
                            .push(Event::Open(Compound::Function(Box::new(name.clone())), at));
                    }
                    self.next()?;
                    self.expect(Tok::Char(b')'), "syntax error in a function definition")?;
                    self.newline_list()?;
                    self.function_body()?;
                    if w.is_some() {
                        self.close();
                    }
                    return Ok(());
                }
                if let Some(w) = &w {
                    self.expand_word(w)?;
                }
                self.parser_state &= !PST_REDIRLIST;
                self.simple_command_from(true, w)
            }
            _ => self.simple_command(false),
        }
    }

    /// `coproc`, after the keyword.
    fn coproc(&mut self) -> R<()> {
        let t = self.peek()?;
        if starts_shell_command(t) {
            self.shell_command()?;
            return self.redirection_list();
        }
        if t == Tok::Word {
            let (_, w) = self.next()?;
            if starts_shell_command(self.peek()?) {
                // bash's named coprocess; zsh runs NAME as the coprocess instead.
                let at = w.as_ref().map_or(self.tok_at, |w| w.start);
                self.zsh_unreliable_at(super::ZSH_NAMED_COPROC, at);
                self.shell_command()?;
                return self.redirection_list();
            }
            if let Some(w) = &w {
                self.expand_word(w)?;
            }
            self.parser_state &= !PST_REDIRLIST;
            return self.simple_command_from(true, w);
        }
        self.simple_command(false)
    }

    /// Records that the innermost compound command or definition ends here.
    fn close(&mut self) {
        let end = self.input.last_origin().saturating_add(1);
        self.out.events.push(Event::Close(end));
    }

    fn function_body(&mut self) -> R<()> {
        if !starts_shell_command(self.peek()?) {
            return Err(self.err("syntax error in a function body"));
        }
        self.shell_command()?;
        self.redirection_list()
    }

    fn redirection_list(&mut self) -> R<()> {
        while matches!(self.peek()?, Tok::Number | Tok::RedirWord)
            || is_redirection_op(self.peek()?)
        {
            let r = self.redirection()?;
            self.out.events.push(Event::Redirect(Box::new(r)));
        }
        Ok(())
    }

    /// A simple command: words, assignments and redirections. `started` when its first
    /// word was read already (`first`).
    fn simple_command(&mut self, started: bool) -> R<()> {
        self.simple_command_from(started, None)
    }

    fn simple_command_from(&mut self, started: bool, first: Option<Word>) -> R<()> {
        let mut elements = usize::from(started);
        let mut words: Vec<Word> = Vec::new();
        let mut redirects: Vec<Redirect> = Vec::new();
        let mut at = self.tok_at;
        if let Some(w) = first {
            at = w.start;
            words.push(w);
        }
        loop {
            let t = self.peek()?;
            match t {
                Tok::Word | Tok::AssignmentWord => {
                    let (_, w) = self.next()?;
                    if let Some(w) = w {
                        if words.is_empty() && redirects.is_empty() {
                            at = w.start;
                        }
                        self.expand_word(&w)?;
                        words.push(w);
                    }
                    self.parser_state &= !PST_REDIRLIST;
                }
                Tok::Number | Tok::RedirWord => redirects.push(self.redirection()?),
                _ if is_redirection_op(t) => redirects.push(self.redirection()?),
                _ => break,
            }
            if elements == 0 && (matches!(t, Tok::Number | Tok::RedirWord) || is_redirection_op(t))
            {
                self.parser_state |= PST_REDIRLIST;
            }
            elements += 1;
        }
        if elements == 0 {
            return Err(self.syntax());
        }
        self.parser_state &= !PST_REDIRLIST;
        // zsh assigns to a positional parameter (`1=x`) and to a name past ASCII (`é=1`)
        // where bash reads a command's name: the reading is not followed in zsh, but for
        // `0=…` alone (the plugin standard's `0=${(%):-%N}`), which names no command
        // either way.
        let k = words
            .iter()
            .take_while(|w| super::syntax::assignment(w.text.bytes(), false).is_some())
            .count();
        if words
            .get(k)
            .is_some_and(|w| super::lexer::zsh_only_assignment(w.text.bytes()))
            && !(words.len() == 1 && words[0].text.bytes().starts_with(b"0="))
        {
            let at = words[k].start;
            self.zsh_unreliable_at(
                "an assignment zsh reads where bash reads a command's name (to a positional parameter, `1=x`, or to a name with letters past ASCII, `é=1`)",
                at,
            );
        }
        let end = self.input.last_origin().saturating_add(1);
        // Kept until the process ends: no room past the last element (a shrink is in
        // place, and what it frees holds the next command's words).
        self.out.events.push(Event::Simple(SimpleCommand {
            at,
            end,
            words: words.into_boxed_slice(),
            redirects: redirects.into_boxed_slice(),
        }));
        Ok(())
    }

    fn redirection(&mut self) -> R<Redirect> {
        let (mut t, fd_word) = self.next()?;
        let mut fd = None;
        if matches!(t, Tok::Number | Tok::RedirWord) {
            fd = fd_word.map(|w| Box::from(w.text.bytes()));
            t = self.next()?.0;
        }
        let op_at = self.tok_at;
        let redirect = |op: RedirOp, target: Option<Word>| Redirect {
            at: op_at,
            op,
            fd,
            target,
        };
        match t {
            Tok::LessLess | Tok::LessLessMinus => {
                let (w, word) = self.next()?;
                match (w, word) {
                    (Tok::Word, Some(word)) => {
                        self.need_here_doc.push(Pending {
                            op: op_at,
                            strip_tabs: t == Tok::LessLessMinus,
                            word: word.clone(),
                        });
                        Ok(redirect(RedirOp::Heredoc, Some(word)))
                    }
                    _ => Err(self.err("syntax error after a heredoc operator")),
                }
            }
            Tok::LessAnd | Tok::GreaterAnd => match self.next()? {
                (Tok::Number, _) | (Tok::Char(b'-'), _) => Ok(redirect(RedirOp::Duplicate, None)),
                (Tok::Word, Some(w)) => {
                    self.expand_word(&w)?;
                    Ok(redirect(RedirOp::Duplicate, Some(w)))
                }
                _ => Err(self.syntax()),
            },
            _ if is_redirection_op(t) => match self.next()? {
                (Tok::Word, Some(w)) => {
                    self.expand_word(&w)?;
                    let op = match t {
                        Tok::LessLessLess => RedirOp::HereString,
                        Tok::Char(b'<') => RedirOp::Input,
                        Tok::LessGreater => RedirOp::ReadWrite,
                        _ => RedirOp::Output,
                    };
                    Ok(redirect(op, Some(w)))
                }
                _ => Err(self.syntax()),
            },
            _ => Err(self.syntax()),
        }
    }

    fn shell_command(&mut self) -> R<()> {
        self.enter()?;
        let at = self.tok_at;
        let (t, _) = self.next()?;
        let kind = match t {
            Tok::While | Tok::Until => Compound::Loop,
            Tok::Select => Compound::Select(None),
            Tok::Case => Compound::Case(None),
            Tok::For => Compound::For(None, None),
            Tok::Char(b'(') => Compound::Subshell,
            _ => Compound::Group,
        };
        let opened = self.out.events.len();
        self.out.events.push(Event::Open(kind, at));
        let r = match t {
            Tok::For => self.for_command(true),
            Tok::Select => self.for_command(false),
            Tok::Case => self.case_command(),
            Tok::While | Tok::Until => {
                self.compound_list()?;
                if self.peek()? == Tok::Eof && self.d.zsh() {
                    // zsh runs `while LIST` that the text ends in.
                    self.leave();
                    return Ok(());
                }
                self.expect(Tok::Do, "expected `do'")?;
                self.compound_list()?;
                self.expect(Tok::Done, "expected `done'")
            }
            Tok::If => {
                self.compound_list()?;
                self.expect(Tok::Then, "expected `then'")?;
                self.compound_list()?;
                loop {
                    match self.next()?.0 {
                        Tok::Elif => {
                            self.compound_list()?;
                            self.expect(Tok::Then, "expected `then'")?;
                            self.compound_list()?;
                        }
                        Tok::Else => {
                            self.compound_list()?;
                            self.expect(Tok::Fi, "expected `fi'")?;
                            break Ok(());
                        }
                        Tok::Fi => break Ok(()),
                        _ => break Err(self.err("expected `fi'")),
                    }
                }
            }
            Tok::Char(b'(') => {
                self.compound_list()?;
                self.expect(Tok::Char(b')'), "expected `)'")
            }
            Tok::LBrace => {
                self.compound_list()?;
                self.expect(Tok::RBrace, "expected `}'")
            }
            Tok::ArithCmd => Ok(()),
            Tok::CondStart => {
                self.expect(Tok::CondCmd, "syntax error in [[ ]]")?;
                self.expect(Tok::CondEnd, "expected `]]'")
            }
            _ => Err(self.syntax()),
        };
        self.leave();
        if r.is_ok() {
            self.close();
        } else {
            self.out.events.truncate(opened);
        }
        r
    }

    /// `for` / `select`, after the keyword.
    fn for_command(&mut self, is_for: bool) -> R<()> {
        let opened = self.out.events.len().checked_sub(1);
        let (t, name) = self.next()?;
        if is_for && t == Tok::ArithForExprs {
            if let Some(Event::Open(kind, _)) = opened.and_then(|i| self.out.events.get_mut(i)) {
                *kind = Compound::Loop;
            }
            match self.peek()? {
                Tok::Char(b';' | b'\n') => {
                    self.next()?;
                    self.newline_list()?;
                }
                Tok::Eof => return Err(self.syntax()),
                _ => {}
            }
            return self.loop_body();
        }
        if t != Tok::Word {
            return Err(self.err("syntax error in a for loop"));
        }
        match self.peek()? {
            Tok::Char(b';') => {
                self.next()?;
                self.newline_list()?;
            }
            _ => {
                self.newline_list()?;
                if self.peek()? == Tok::In {
                    self.next()?;
                    let mut words = Vec::new();
                    loop {
                        match self.next()? {
                            (Tok::Word | Tok::AssignmentWord | Tok::Number, Some(w)) => {
                                self.expand_word(&w)?;
                                words.push(w);
                            }
                            (Tok::Char(b'\n' | b';'), _) => break,
                            _ => return Err(self.err("syntax error in a for loop")),
                        }
                    }
                    match opened.and_then(|i| self.out.events.get_mut(i)) {
                        Some(Event::Open(Compound::For(_, list), _)) => *list = Some(words),
                        _ => self.out.events.push(Event::Words(words)),
                    }
                    self.newline_list()?;
                }
            }
        }
        if let Some(event) = opened.and_then(|i| self.out.events.get_mut(i)) {
            match event {
                Event::Open(Compound::For(var, _), _) if is_for => *var = name.map(Box::new),
                Event::Open(Compound::Select(var), _) if !is_for => *var = name.map(Box::new),
                _ => {}
            }
        }
        self.loop_body()
    }

    fn loop_body(&mut self) -> R<()> {
        if !matches!(self.peek()?, Tok::Do | Tok::LBrace) && self.d.zsh() {
            // zsh's short form: `for i in 1; command`.
            return self.pipeline_command();
        }
        match self.next()?.0 {
            Tok::Do => {
                self.compound_list()?;
                self.expect(Tok::Done, "expected `done'")
            }
            Tok::LBrace => {
                self.compound_list()?;
                self.expect(Tok::RBrace, "expected `}'")
            }
            _ => Err(self.err("expected `do'")),
        }
    }

    fn case_command(&mut self) -> R<()> {
        let opened = self.out.events.len().checked_sub(1);
        match self.next()? {
            (Tok::Word | Tok::AssignmentWord | Tok::Number, Some(w)) => {
                self.expand_word(&w)?;
                if let Some(Event::Open(Compound::Case(word), _)) =
                    opened.and_then(|i| self.out.events.get_mut(i))
                {
                    *word = Some(Box::new(w));
                }
            }
            _ => return Err(self.err("syntax error in a case command")),
        }
        self.newline_list()?;
        self.expect(Tok::In, "expected `in'")?;
        loop {
            self.newline_list()?;
            let mut t = self.next()?;
            if t.0 == Tok::Esac {
                return Ok(());
            }
            if t.0 == Tok::Char(b'(') {
                t = self.next()?;
            }
            // pattern: WORD ('|' WORD)*
            let mut patterns = Vec::new();
            loop {
                match t {
                    (Tok::Word | Tok::AssignmentWord | Tok::Number, Some(w)) => {
                        self.expand_word(&w)?;
                        patterns.push(w);
                    }
                    _ => return Err(self.err("syntax error in a case pattern")),
                }
                match self.next()?.0 {
                    Tok::Char(b'|') => t = self.next()?,
                    Tok::Char(b')') => break,
                    _ => return Err(self.err("syntax error in a case pattern")),
                }
            }
            self.out.events.push(Event::Words(patterns));
            self.newline_list()?;
            if starts_command(self.peek()?) {
                self.compound_list()?;
            }
            match self.next()?.0 {
                Tok::SemiSemi | Tok::SemiAnd | Tok::SemiSemiAnd => {}
                Tok::Esac => return Ok(()),
                _ => return Err(self.err("expected `;;' or `esac'")),
            }
        }
    }

    /// The program of a command substitution, after the token bash's `parse_comsub` makes
    /// it read first, up to and including its closing token.
    pub fn parse_comsub_program(&mut self, close: u8) -> R<()> {
        let first = self.next()?.0;
        if !matches!(first, Tok::DolParen | Tok::DolBrace) {
            return Err(self.syntax());
        }
        let closing = if close == b'}' {
            Tok::RBrace
        } else {
            Tok::Char(close)
        };
        self.newline_list()?;
        if self.peek()? == closing {
            self.next()?;
            return Ok(());
        }
        self.compound_list()?;
        match self.next()?.0 {
            t if t == closing => Ok(()),
            _ => Err(self.err("command substitution not closed")),
        }
    }

    // ---- [[ … ]] (bash's `parse_cond_command`: read_token, not yylex) ----

    fn cond_skip_newlines(&mut self) -> R<(Tok, Option<Word>)> {
        loop {
            let t = self.read_token()?;
            if t != Tok::Char(b'\n') {
                let w = matches!(
                    t,
                    Tok::Word | Tok::AssignmentWord | Tok::Number | Tok::RedirWord
                )
                .then(|| self.take_word());
                return Ok((t, w));
            }
        }
    }

    /// Reads the expression of `[[ … ]]`; gives the token that ended it.
    pub fn parse_cond_command(&mut self) -> R<Tok> {
        self.enter()?;
        let t = self.cond_or()?;
        self.leave();
        Ok(t)
    }

    /// `cond_or`: terms joined by `||` (bash's right recursion, read as a loop: the
    /// stack does not grow with the number of operators).
    fn cond_or(&mut self) -> R<Tok> {
        loop {
            let t = self.cond_and()?;
            if t != Tok::OrOr {
                return Ok(t);
            }
        }
    }

    /// `cond_and`: terms joined by `&&`, as a loop.
    fn cond_and(&mut self) -> R<Tok> {
        loop {
            let t = self.cond_term()?;
            if t != Tok::AndAnd {
                return Ok(t);
            }
        }
    }

    fn cond_word(t: Tok) -> bool {
        matches!(
            t,
            Tok::Word | Tok::AssignmentWord | Tok::Number | Tok::RedirWord
        )
    }

    fn cond_term(&mut self) -> R<Tok> {
        self.enter()?;
        let (tok, word) = self.cond_skip_newlines()?;
        let bytes = word
            .as_ref()
            .map(|w| w.text.bytes().to_vec())
            .unwrap_or_default();
        let r = if tok == Tok::CondEnd {
            Err(self.err("unexpected `]]'"))
        } else if tok == Tok::Char(b'(') {
            let t = self.cond_or()?;
            if t != Tok::Char(b')') {
                Err(self.err("expected `)' in [[ ]]"))
            } else {
                Ok(self.cond_skip_newlines()?.0)
            }
        } else if tok == Tok::Bang || (Self::cond_word(tok) && bytes == b"!") {
            self.cond_term()
        } else if Self::cond_word(tok) && test_unop(&bytes) {
            let t = self.read_token()?;
            if Self::cond_word(t) {
                let w = self.word.clone();
                self.expand_word(&w)?;
                let op = word.clone().into_iter();
                self.out.events.push(Event::Cond(op.chain([w]).collect()));
                Ok(self.cond_skip_newlines()?.0)
            } else {
                Err(self.err("unexpected argument to a [[ ]] unary operator"))
            }
        } else if Self::cond_word(tok) {
            if let Some(w) = &word {
                self.expand_word(w)?;
            }
            let t = self.read_token()?;
            let op = if Self::cond_word(t) {
                let ob = self.word.text.bytes().to_vec();
                if test_binop(&ob) {
                    if matches!(ob.as_slice(), b"=" | b"==" | b"!=") {
                        self.parser_state |= PST_EXTPAT;
                    }
                    Some(())
                } else if ob == b"=~" {
                    self.parser_state |= PST_REGEXP;
                    Some(())
                } else {
                    None
                }
            } else if matches!(t, Tok::Char(b'<' | b'>')) {
                Some(())
            } else if matches!(t, Tok::CondEnd | Tok::AndAnd | Tok::OrOr | Tok::Char(b')')) {
                self.out
                    .events
                    .push(Event::Cond(word.into_iter().collect()));
                self.leave();
                return Ok(t);
            } else {
                None
            };
            let op_word = self.word.clone();
            if op.is_none() {
                Err(self.err("conditional binary operator expected"))
            } else {
                let saved = self.extglob_forced;
                if self.parser_state & PST_EXTPAT != 0 {
                    self.extglob_forced = true;
                }
                let t = self.read_token();
                self.extglob_forced = saved;
                self.parser_state &= !(PST_REGEXP | PST_EXTPAT);
                let t = t?;
                if Self::cond_word(t) {
                    let w = self.word.clone();
                    self.expand_word(&w)?;
                    let left = word.into_iter();
                    self.out
                        .events
                        .push(Event::Cond(left.chain([op_word, w]).collect()));
                    Ok(self.cond_skip_newlines()?.0)
                } else {
                    Err(self.err("unexpected argument to a [[ ]] binary operator"))
                }
            }
        } else {
            Err(self.err("unexpected token in [[ ]]"))
        };
        self.leave();
        let _ = PST_CONDCMD;
        r
    }
}
