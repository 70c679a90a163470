//! A reading's events (`tree.rs`) as a tree the effects model walks: the top-level
//! commands, each substitution's program, and where each substitution ends.

use std::collections::HashMap;

use crate::shell::Heredoc;
use crate::shell::text::Text;
use crate::shell::tree::{Compound, Event, Redirect, SimpleCommand};
use crate::shell::word::{self, Assignment, SubstEnds, WordInfo};

/// The events of a reading, as a tree.
pub(super) enum Node<'r> {
    /// A simple command, and its index in [`Prog::simple_words`].
    Simple(&'r SimpleCommand, usize),
    Compound {
        kind: &'r Compound,
        at: u32,
        children: Vec<(Node<'r>, bool)>,
        redirects: Vec<&'r Redirect>,
    },
    Arith(&'r Text<'static>),
    Cond(&'r [crate::shell::tree::Word]),
    /// A top-level input unit ended.
    Unit,
}

/// A reading's program: its top-level commands, each substitution's program, and where
/// each substitution ends.
pub(super) struct Prog<'r> {
    /// The text the reading's offsets index (the command, or text `eval` runs).
    pub(super) text: &'r [u8],
    pub(super) root: Vec<(Node<'r>, bool)>,
    pub(super) substs: HashMap<u32, Vec<(Node<'r>, bool)>>,
    pub(super) ends: Ends,
    pub(super) heredocs: &'r [Heredoc],
    /// Each simple command's words as read, read once: the effects model walks the
    /// commands once a pass, and reading a word is a pure function of its text and
    /// [`Prog::ends`], both fixed for the program's life.
    simple_words: Vec<std::cell::OnceCell<std::rc::Rc<SimpleWords>>>,
    /// Each heredoc's text as its command reads it, made once and shared by every value
    /// that holds it (a body can be megabytes; a value is cloned on every pass).
    heredoc_texts: Vec<std::cell::OnceCell<Option<crate::shell::Bytes>>>,
    /// The texts of bodies as is, shared by the readings of one command (`None` for text
    /// `eval` runs, whose offsets index other text).
    bodies: Option<&'r crate::shell::heredoc::Bodies>,
}

/// A simple command's words, read.
pub(super) struct SimpleWords {
    /// Every word, read ([`word::read`]).
    pub(super) infos: Vec<WordInfo>,
    /// The work reading them took ([`word::read_counted`]): charged on every use, as if
    /// they were read again, so that the meter's account does not depend on the cache.
    pub(super) work: usize,
    /// The assignment words that lead it ([`word::assignment`]), in order.
    pub(super) assignments: Vec<Assignment>,
}

impl Prog<'_> {
    /// The words of the simple command `c`, the node [`Node::Simple`]`(c, index)`: read
    /// the first time they are asked for.
    pub(super) fn simple_words(
        &self,
        c: &SimpleCommand,
        index: usize,
        meter: &crate::shell::Work,
    ) -> std::rc::Rc<SimpleWords> {
        if let Some(read) = self.simple_words.get(index).and_then(|cell| cell.get()) {
            return std::rc::Rc::clone(read);
        }
        // Read now, each word charged as it is read: past the meter, the words are not
        // read on (the verdict is a limit) and nothing is kept.
        let mut work = 0usize;
        let mut infos = Vec::with_capacity(c.words.len());
        for w in &c.words {
            let (info, steps) = word::read_counted(&w.text, &self.ends);
            if !meter.charge(steps + 1) {
                return std::rc::Rc::new(SimpleWords {
                    infos: Vec::new(),
                    work: 0,
                    assignments: Vec::new(),
                });
            }
            work = work.saturating_add(steps + 1);
            infos.push(info);
        }
        let read = std::rc::Rc::new(SimpleWords {
            infos,
            work,
            assignments: c
                .words
                .iter()
                .map_while(|w| word::assignment(&w.text, &self.ends))
                .collect(),
        });
        if let Some(cell) = self.simple_words.get(index) {
            let _ = cell.set(std::rc::Rc::clone(&read));
        }
        read
    }

    /// Whether the words of simple command `index` have been read (and kept) already.
    pub(super) fn is_read(&self, index: usize) -> bool {
        self.simple_words
            .get(index)
            .is_some_and(|cell| cell.get().is_some())
    }

    /// The text of heredoc `index` (of [`Prog::heredocs`]) as `make` makes it from the
    /// body's bytes, made the first time it is asked for; `None` for a body outside the
    /// text.
    pub(super) fn heredoc_text(
        &self,
        index: usize,
        make: impl FnOnce(&[u8]) -> crate::shell::Bytes,
    ) -> Option<crate::shell::Bytes> {
        let read = || {
            let h = self.heredocs.get(index)?;
            if h.quoted
                && !h.strip_tabs
                && let Some(bodies) = self.bodies
            {
                // A quoted body as is: the same bytes every reading makes, made once.
                return bodies.text(self.text, h.body.0, h.body.1);
            }
            let (s, e) = (h.body.0 as usize, h.body.1 as usize);
            self.text.get(s..e.min(self.text.len())).map(make)
        };
        match self.heredoc_texts.get(index) {
            Some(cell) => cell.get_or_init(read).clone(),
            None => read(),
        }
    }
}

pub(super) struct Ends(HashMap<u32, u32>);

impl SubstEnds for Ends {
    fn end_of(&self, at: u32) -> Option<u32> {
        self.0.get(&at).copied()
    }
}

enum FrameKind<'r> {
    Root,
    Compound(&'r Compound, u32),
    Subst(u32),
}

struct Frame<'r> {
    kind: FrameKind<'r>,
    items: Vec<(Node<'r>, bool)>,
    pipe: bool,
}

pub(super) fn build<'r>(
    text: &'r [u8],
    events: &'r [Event],
    heredocs: &'r [Heredoc],
    bodies: Option<&'r crate::shell::heredoc::Bodies>,
) -> Prog<'r> {
    let mut stack: Vec<Frame<'r>> = vec![Frame {
        kind: FrameKind::Root,
        items: Vec::new(),
        pipe: false,
    }];
    let mut substs: HashMap<u32, Vec<(Node<'r>, bool)>> = HashMap::new();
    let mut ends = HashMap::new();
    let mut simples = 0usize;
    fn push<'r>(stack: &mut [Frame<'r>], node: Node<'r>) {
        if let Some(top) = stack.last_mut() {
            let piped = std::mem::take(&mut top.pipe);
            top.items.push((node, piped));
        }
    }
    fn close_compound<'r>(stack: &mut Vec<Frame<'r>>) {
        if let Some(Frame {
            kind: FrameKind::Compound(kind, at),
            items,
            ..
        }) = stack.pop()
        {
            push(
                stack,
                Node::Compound {
                    kind,
                    at,
                    children: items,
                    redirects: Vec::new(),
                },
            );
        }
    }
    for e in events {
        match e {
            Event::Simple(c) => {
                push(&mut stack, Node::Simple(c, simples));
                simples += 1;
            }
            Event::Open(kind, at) => stack.push(Frame {
                kind: FrameKind::Compound(kind, *at),
                items: Vec::new(),
                pipe: false,
            }),
            Event::Close(_) => {
                if matches!(stack.last().map(|f| &f.kind), Some(FrameKind::Compound(..))) {
                    close_compound(&mut stack);
                }
            }
            Event::Redirect(r) => {
                if let Some((Node::Compound { redirects, .. }, _)) =
                    stack.last_mut().and_then(|f| f.items.last_mut())
                {
                    redirects.push(r);
                }
            }
            Event::Pipe => {
                if let Some(top) = stack.last_mut() {
                    top.pipe = true;
                }
            }
            Event::SubstOpen(at) => stack.push(Frame {
                kind: FrameKind::Subst(*at),
                items: Vec::new(),
                pipe: false,
            }),
            Event::SubstClose(at, end) => {
                if !stack
                    .iter()
                    .any(|f| matches!(f.kind, FrameKind::Subst(a) if a == *at))
                {
                    continue;
                }
                while matches!(stack.last().map(|f| &f.kind), Some(FrameKind::Compound(..))) {
                    close_compound(&mut stack);
                }
                if let Some(Frame {
                    kind: FrameKind::Subst(a),
                    items,
                    ..
                }) = stack.pop()
                {
                    // Text run by `eval` or `trap` has every offset pinned to the command's:
                    // its substitutions share one key, and their programs are walked as one.
                    substs.entry(a).or_default().extend(items);
                    ends.insert(a, *end);
                }
            }
            Event::Arith(t) => push(&mut stack, Node::Arith(t)),
            Event::Cond(w) => push(&mut stack, Node::Cond(w)),
            Event::Unit => {
                if stack.len() == 1 {
                    push(&mut stack, Node::Unit);
                }
            }
        }
    }
    while stack.len() > 1 {
        match stack.last().map(|f| &f.kind) {
            Some(FrameKind::Compound(..)) => close_compound(&mut stack),
            Some(FrameKind::Subst(_)) => {
                if let Some(Frame {
                    kind: FrameKind::Subst(a),
                    items,
                    ..
                }) = stack.pop()
                {
                    substs.entry(a).or_default().extend(items);
                }
            }
            _ => break,
        }
    }
    let root = stack.pop().map(|f| f.items).unwrap_or_default();
    Prog {
        text,
        root,
        substs,
        ends: Ends(ends),
        heredocs,
        simple_words: (0..simples).map(|_| std::cell::OnceCell::new()).collect(),
        heredoc_texts: heredocs
            .iter()
            .map(|_| std::cell::OnceCell::new())
            .collect(),
        bodies,
    }
}
