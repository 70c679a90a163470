//! A reading's events (`shell::tree`) as a tree the judge walks: the top-level commands,
//! each substitution's program, and where each substitution ends.

use rustc_hash::FxHashMap as HashMap;

use crate::shell::tree::{Compound, Event, Redirect, SimpleCommand};
use crate::shell::word::SubstEnds;

/// The events of a reading, as a tree.
pub(super) enum Node<'r> {
    Simple(&'r SimpleCommand),
    Compound {
        kind: &'r Compound,
        at: u32,
        children: Vec<(Node<'r>, Feed)>,
        redirects: Vec<&'r Redirect>,
    },
    Arith(&'r crate::shell::text::Text<'static>),
    Cond(&'r [crate::shell::tree::Word]),
    /// Words expanded where they stand (case patterns, a select list).
    Words(&'r [crate::shell::tree::Word]),
    /// A top-level input unit ended.
    Unit,
}

/// What feeds a node's standard input.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(super) enum Feed {
    /// The command's own (its list's, its redirections').
    #[default]
    Own,
    /// `|`: what the command before writes.
    Pipe,
    /// `|&`: what the command before writes, standard error too.
    PipeErr,
}

/// A reading's program: its top-level commands, each substitution's program, and where
/// each substitution ends. Each node says whether a pipe feeds it.
pub(super) struct Prog<'r> {
    pub(super) root: Vec<(Node<'r>, Feed)>,
    pub(super) substs: HashMap<u32, Vec<(Node<'r>, Feed)>>,
    /// The substitutions' offsets, in order.
    pub(super) subst_offsets: Vec<u32>,
    pub(super) ends: Ends,
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
    items: Vec<(Node<'r>, Feed)>,
    pipe: Feed,
}

pub(super) fn build<'r>(events: &'r [Event]) -> Prog<'r> {
    let mut stack: Vec<Frame<'r>> = vec![Frame {
        kind: FrameKind::Root,
        items: Vec::new(),
        pipe: Feed::Own,
    }];
    let mut substs: HashMap<u32, Vec<(Node<'r>, Feed)>> = HashMap::default();
    let mut ends = HashMap::default();
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
            Event::Simple(c) => push(&mut stack, Node::Simple(c)),
            Event::Open(kind, at) => stack.push(Frame {
                kind: FrameKind::Compound(kind, *at),
                items: Vec::new(),
                pipe: Feed::Own,
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
            Event::Pipe { stderr } => {
                if let Some(top) = stack.last_mut() {
                    top.pipe = if *stderr { Feed::PipeErr } else { Feed::Pipe };
                }
            }
            Event::SubstOpen(at) => stack.push(Frame {
                kind: FrameKind::Subst(*at),
                items: Vec::new(),
                pipe: Feed::Own,
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
                    // Text whose offsets are pinned to one command offset has one key for
                    // all its substitutions: their programs are walked as one.
                    substs.entry(a).or_default().extend(items);
                    ends.insert(a, *end);
                }
            }
            Event::Arith(t) => push(&mut stack, Node::Arith(t)),
            Event::Cond(w) => push(&mut stack, Node::Cond(w)),
            Event::Words(w) => push(&mut stack, Node::Words(w)),
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
    let mut subst_offsets: Vec<u32> = substs.keys().copied().collect();
    subst_offsets.sort_unstable();
    Prog {
        root,
        substs,
        subst_offsets,
        ends: Ends(ends),
    }
}
