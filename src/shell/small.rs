//! Storage for the short texts most words are: bytes and origin runs kept inline up to a
//! few, on the heap past that. A script of 1 MiB holds about 250,000 words, nearly all of
//! them shorter than [`INLINE_BYTES`] and of one run; two allocations a word were a fifth
//! of the reading's time (docs/performance.md).

/// Bytes kept inline: what fits beside the length byte and the variant's tag in 32
/// bytes, the size a `Vec` and that tag take (a test checks it).
pub const INLINE_BYTES: usize = 30;

/// A growable byte string, inline while short.
#[derive(Clone, Debug)]
pub enum Bytes {
    Inline { len: u8, buf: [u8; INLINE_BYTES] },
    Heap(Vec<u8>),
}

impl Default for Bytes {
    fn default() -> Bytes {
        Bytes::Inline {
            len: 0,
            buf: [0; INLINE_BYTES],
        }
    }
}

impl Bytes {
    pub fn with_capacity(n: usize) -> Bytes {
        if n <= INLINE_BYTES {
            Bytes::default()
        } else {
            Bytes::Heap(Vec::with_capacity(n))
        }
    }

    pub fn from_slice(s: &[u8]) -> Bytes {
        let mut b = Bytes::with_capacity(s.len());
        b.extend_from_slice(s);
        b
    }

    pub fn from_vec(v: Vec<u8>) -> Bytes {
        if v.len() <= INLINE_BYTES {
            Bytes::from_slice(&v)
        } else {
            Bytes::Heap(v)
        }
    }

    pub fn as_slice(&self) -> &[u8] {
        match self {
            Bytes::Inline { len, buf } => buf.get(..usize::from(*len)).unwrap_or(&[]),
            Bytes::Heap(v) => v,
        }
    }

    pub fn len(&self) -> usize {
        self.as_slice().len()
    }

    pub fn push(&mut self, c: u8) {
        self.extend_from_slice(&[c]);
    }

    pub fn extend_from_slice(&mut self, s: &[u8]) {
        match self {
            Bytes::Inline { len, buf } => {
                let n = usize::from(*len);
                if let Some(slot) = buf.get_mut(n..n + s.len()) {
                    slot.copy_from_slice(s);
                    *len = (n + s.len()) as u8;
                } else {
                    let mut v = Vec::with_capacity((2 * (n + s.len())).max(2 * INLINE_BYTES));
                    v.extend_from_slice(buf.get(..n).unwrap_or(&[]));
                    v.extend_from_slice(s);
                    *self = Bytes::Heap(v);
                }
            }
            Bytes::Heap(v) => v.extend_from_slice(s),
        }
    }

    pub fn pop(&mut self) -> Option<u8> {
        match self {
            Bytes::Inline { len, buf } => {
                let n = usize::from(*len).checked_sub(1)?;
                *len = n as u8;
                buf.get(n).copied()
            }
            Bytes::Heap(v) => v.pop(),
        }
    }
}

impl std::ops::Deref for Bytes {
    type Target = [u8];
    fn deref(&self) -> &[u8] {
        self.as_slice()
    }
}

/// A run of a text: (offset in the text, offset in the command).
pub type Run = (u32, u32);

/// The runs of a text, the first inline.
#[derive(Clone, Debug, Default)]
pub enum Runs {
    #[default]
    None,
    One(Run),
    Many(Vec<Run>),
}

impl Runs {
    pub fn as_slice(&self) -> &[Run] {
        match self {
            Runs::None => &[],
            Runs::One(r) => std::slice::from_ref(r),
            Runs::Many(v) => v,
        }
    }

    pub fn push(&mut self, r: Run) {
        match self {
            Runs::None => *self = Runs::One(r),
            Runs::One(first) => *self = Runs::Many(vec![*first, r]),
            Runs::Many(v) => v.push(r),
        }
    }

    pub fn pop(&mut self) -> Option<Run> {
        match self {
            Runs::None => None,
            Runs::One(r) => {
                let r = *r;
                *self = Runs::None;
                Some(r)
            }
            Runs::Many(v) => v.pop(),
        }
    }
}

/// The same runs, however they are kept.
impl PartialEq for Runs {
    fn eq(&self, other: &Runs) -> bool {
        self.as_slice() == other.as_slice()
    }
}

impl std::ops::Deref for Runs {
    type Target = [Run];
    fn deref(&self) -> &[Run] {
        self.as_slice()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The inline variant fills the room the heap one takes: 32 bytes.
    #[test]
    fn inline_bytes_take_no_more_room_than_a_vec_and_its_tag() {
        assert_eq!(
            std::mem::size_of::<Bytes>(),
            std::mem::size_of::<Vec<u8>>() + std::mem::align_of::<Vec<u8>>()
        );
    }

    /// Bytes pushed one at a time or in slices, and popped, read back as a `Vec` given the
    /// same steps does, across the inline limit both ways.
    #[test]
    fn bytes_behave_as_a_vec_across_the_inline_limit() {
        let mut seed = 99u64;
        let mut next = |n: u64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) % n
        };
        for _ in 0..200 {
            let mut b = Bytes::with_capacity(next(40) as usize);
            let mut v: Vec<u8> = Vec::new();
            for _ in 0..next(60) {
                match next(4) {
                    0 => {
                        let s: Vec<u8> = (0..next(30)).map(|i| i as u8).collect();
                        b.extend_from_slice(&s);
                        v.extend_from_slice(&s);
                    }
                    1 => assert_eq!(b.pop(), v.pop()),
                    _ => {
                        let c = next(256) as u8;
                        b.push(c);
                        v.push(c);
                    }
                }
                assert_eq!(b.as_slice(), v.as_slice());
            }
            assert_eq!(Bytes::from_vec(v.clone()).as_slice(), v.as_slice());
        }
    }

    #[test]
    fn runs_behave_as_a_vec() {
        let mut r = Runs::default();
        let mut v: Vec<Run> = Vec::new();
        for k in 0..5u32 {
            r.push((k, k * 3));
            v.push((k, k * 3));
            assert_eq!(r.as_slice(), v.as_slice());
        }
        for _ in 0..6 {
            assert_eq!(r.pop(), v.pop());
            assert_eq!(r.as_slice(), v.as_slice());
        }
    }
}
