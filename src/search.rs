//! Byte searches for short needles in mostly short texts (a word, a value, a line): compared
//! in place after a `memchr` of the needle's first byte, where building a searcher for each
//! call (`memchr::memmem`) would cost more than the search. Long texts still get a searcher.
//! Bounded either way: in place, at most `hay.len() * needle.len()` compares over at most
//! [`IN_PLACE`] bytes.

/// Longest text searched in place; a longer one gets a searcher.
const IN_PLACE: usize = 256;
/// Longest text scanned a byte at a time: a vectorised `memchr` costs more to set up than
/// such a text takes to read (most words and paths).
const SCALAR: usize = 64;
/// The same for [`find`], whose scan compares at each offset where the first byte stands.
const SCALAR_FIND: usize = 16;

/// The offset of the first `needle` in `hay` (the empty needle is at 0, as `memmem` says).
pub fn find(hay: &[u8], needle: &[u8]) -> Option<usize> {
    let Some(&first) = needle.first() else {
        return Some(0);
    };
    if hay.len() < needle.len() {
        return None;
    }
    if hay.len() > IN_PLACE {
        return memchr::memmem::find(hay, needle);
    }
    if hay.len() <= SCALAR_FIND {
        return (0..=hay.len() - needle.len()).find(|&at| {
            hay.get(at) == Some(&first) && hay.get(at..at + needle.len()) == Some(needle)
        });
    }
    memchr::memchr_iter(first, hay).find(|&at| hay.get(at..at + needle.len()) == Some(needle))
}

/// The offset of the last `byte` in `hay` (a path's last `/`).
pub fn rfind_byte(hay: &[u8], byte: u8) -> Option<usize> {
    if hay.len() <= SCALAR {
        return hay.iter().rposition(|&c| c == byte);
    }
    memchr::memrchr(byte, hay)
}

/// Whether `needle` occurs in `hay` (the empty needle does).
pub fn contains(hay: &[u8], needle: &[u8]) -> bool {
    find(hay, needle).is_some()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every offset agrees with `memmem` on texts in place and past [`IN_PLACE`], needles
    /// at the start, the end, overlapping themselves, and absent.
    #[test]
    fn finds_what_memmem_finds() {
        let long = [b"ab".repeat(200), b"$(x".to_vec(), b"a".repeat(100)].concat();
        // (Past a byte-at-a-time scan, within the in-place search: between the two.)
        let middle = [b"a".repeat(80), b"$(x${".to_vec(), b"aa".repeat(20)].concat();
        let hays: [&[u8]; 8] = [
            b"",
            b"$",
            b"$(",
            b"x$(y$(",
            b"aaa",
            b"a${b}c${",
            &middle,
            &long,
        ];
        let needles: [&[u8]; 6] = [b"$(", b"${", b"aa", b"$(x", b"zz", b""];
        for h in hays {
            for n in needles {
                assert_eq!(find(h, n), memchr::memmem::find(h, n), "{h:?} {n:?}");
                assert_eq!(contains(h, n), memchr::memmem::find(h, n).is_some());
            }
            for b in [b'/', b'$', b'a', b'z'] {
                assert_eq!(rfind_byte(h, b), memchr::memrchr(b, h), "{h:?} {b}");
            }
        }
    }
}
