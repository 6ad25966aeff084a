//! An element's key as shared text.

use std::borrow::Borrow;
use std::fmt;
use std::ops::Deref;
use std::sync::Arc;

/// An element's key (`keyBy`'s value): text behind a shared pointer. A copy of an input is a copy
/// of its items, not an allocation per element, and the scenario reader gives every element of
/// one key the same text (`Key::interned`). The page copies the whole input at drag moves (the
/// run on show's scenario and the last request share it): with a `String` per key, the copy and the old input's drop
/// cost 12-19 ms of every move at 100,000 elements. It reads, compares, hashes and prints as the
/// text it holds (`Debug` too, as a `String` would).
#[derive(Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Key(Arc<str>);

impl Key {
    pub fn as_str(&self) -> &str {
        &self.0
    }

    /// The key of `text` in `seen`, or a new one added to it: one shared text per distinct key
    /// (a reader's keys). A `BTreeSet`, as the reader's count of distinct keys already was: a
    /// `HashMap` of keys cost the page's `.wasm` a kilobyte.
    pub fn interned(seen: &mut std::collections::BTreeSet<Key>, text: &str) -> Key {
        if let Some(k) = seen.get(text) {
            return k.clone();
        }
        let k = Key::from(text);
        seen.insert(k.clone());
        k
    }
}

impl Default for Key {
    fn default() -> Self {
        Key(Arc::from(""))
    }
}

impl Deref for Key {
    type Target = str;
    fn deref(&self) -> &str {
        &self.0
    }
}

impl AsRef<str> for Key {
    fn as_ref(&self) -> &str {
        &self.0
    }
}

impl Borrow<str> for Key {
    fn borrow(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(&*self.0, f)
    }
}

impl fmt::Debug for Key {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(&*self.0, f)
    }
}

impl serde::Serialize for Key {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.0)
    }
}

impl From<&str> for Key {
    fn from(s: &str) -> Self {
        Key(Arc::from(s))
    }
}

impl From<String> for Key {
    fn from(s: String) -> Self {
        Key(Arc::from(s))
    }
}

impl From<&String> for Key {
    fn from(s: &String) -> Self {
        Key(Arc::from(s.as_str()))
    }
}

impl From<Key> for String {
    fn from(k: Key) -> Self {
        k.0.to_string()
    }
}

impl PartialEq<str> for Key {
    fn eq(&self, other: &str) -> bool {
        &*self.0 == other
    }
}

impl PartialEq<&str> for Key {
    fn eq(&self, other: &&str) -> bool {
        &*self.0 == *other
    }
}

impl PartialEq<String> for Key {
    fn eq(&self, other: &String) -> bool {
        *self.0 == **other
    }
}

impl PartialEq<Key> for str {
    fn eq(&self, other: &Key) -> bool {
        self == &*other.0
    }
}

impl PartialEq<Key> for &str {
    fn eq(&self, other: &Key) -> bool {
        *self == &*other.0
    }
}

impl PartialEq<Key> for String {
    fn eq(&self, other: &Key) -> bool {
        **self == *other.0
    }
}

#[cfg(test)]
mod tests {
    use super::Key;

    #[test]
    fn a_key_reads_compares_and_prints_as_its_text() {
        let k = Key::from("k07");
        assert_eq!(k, "k07");
        assert_eq!("k07", k);
        assert_eq!(k, String::from("k07"));
        assert_eq!(format!("{k} {k:?}"), r#"k07 "k07""#);
        assert_eq!(k.len(), 3);
        let (a, b) = (Key::from("a"), Key::from("b"));
        assert!(a < b, "keys order as their texts");
        let map: std::collections::HashMap<Key, u32> = [(k.clone(), 1)].into();
        assert_eq!(map.get("k07"), Some(&1));
        assert_eq!(Key::default(), "");
    }

    #[test]
    fn the_interner_shares_one_text_per_key() {
        let mut seen = std::collections::BTreeSet::new();
        let (a, b, c) = (Key::interned(&mut seen, "a"), Key::interned(&mut seen, "b"), Key::interned(&mut seen, "a"));
        assert!(std::sync::Arc::ptr_eq(&a.0, &c.0));
        assert!(!std::sync::Arc::ptr_eq(&a.0, &b.0));
        assert_eq!((a.as_str(), b.as_str()), ("a", "b"));
        assert_eq!(seen.len(), 2);
    }
}
