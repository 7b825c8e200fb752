//! A parsed value as simd-json's tape, walked without building a tree: filters and
//! counts read it in place, and only records that are shown become `serde_json::Value`s.

use crate::path::Step;
use briefly_core::cut_str;
use serde_json::{Map, Number, Value};
use simd_json::{Node, StaticNode};

/// A value on the tape: its node and the nodes of everything inside it.
#[derive(Debug, Clone, Copy)]
pub struct TapeValue<'t, 'i> {
    nodes: &'t [Node<'i>],
}

/// The JSON type of a value, as the shape names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Kind {
    /// `null`.
    Null,
    /// `true` or `false`.
    Bool,
    /// A number.
    Number,
    /// A string.
    String,
    /// An array.
    Array,
    /// An object.
    Object,
}

impl Kind {
    /// The type's name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Null => "null",
            Kind::Bool => "bool",
            Kind::Number => "number",
            Kind::String => "string",
            Kind::Array => "array",
            Kind::Object => "object",
        }
    }
}

/// Nodes the value at the head of `nodes` takes on the tape.
fn size(node: &Node<'_>) -> usize {
    match node {
        Node::Object { count, .. } | Node::Array { count, .. } => count + 1,
        _ => 1,
    }
}

impl<'t, 'i> TapeValue<'t, 'i> {
    /// The root value of a tape.
    pub fn root(nodes: &'t [Node<'i>]) -> Self {
        let len = nodes.first().map_or(0, size);
        TapeValue {
            nodes: &nodes[..len],
        }
    }

    fn head(&self) -> &'t Node<'i> {
        &self.nodes[0]
    }

    /// Its type.
    pub fn kind(&self) -> Kind {
        match self.head() {
            Node::String(_) => Kind::String,
            Node::Object { .. } => Kind::Object,
            Node::Array { .. } => Kind::Array,
            Node::Static(StaticNode::Null) => Kind::Null,
            Node::Static(StaticNode::Bool(_)) => Kind::Bool,
            Node::Static(_) => Kind::Number,
        }
    }

    /// The string, if it is one.
    pub fn as_str(&self) -> Option<&'i str> {
        match self.head() {
            Node::String(s) => Some(s),
            _ => None,
        }
    }

    /// The number, if it is an integer (read as one: not `7.0`).
    pub fn as_i128(&self) -> Option<i128> {
        match self.head() {
            Node::Static(StaticNode::I64(n)) => Some((*n).into()),
            Node::Static(StaticNode::U64(n)) => Some((*n).into()),
            _ => None,
        }
    }

    /// The number as f64, if it is one.
    pub fn as_f64(&self) -> Option<f64> {
        match self.head() {
            Node::Static(StaticNode::I64(n)) => Some(*n as f64),
            Node::Static(StaticNode::U64(n)) => Some(*n as f64),
            Node::Static(StaticNode::F64(n)) => Some(*n),
            _ => None,
        }
    }

    /// Elements of an array (nothing for other values).
    pub fn elements(&self) -> impl Iterator<Item = TapeValue<'t, 'i>> {
        let (len, mut at) = match self.head() {
            Node::Array { len, .. } => (*len, 1),
            _ => (0, 1),
        };
        let nodes = self.nodes;
        (0..len).map(move |_| {
            let n = size(&nodes[at]);
            let value = TapeValue {
                nodes: &nodes[at..at + n],
            };
            at += n;
            value
        })
    }

    /// Members of an object, in order, duplicates included (nothing for other values).
    pub fn members(&self) -> impl Iterator<Item = (&'i str, TapeValue<'t, 'i>)> {
        let len = match self.head() {
            Node::Object { len, .. } => *len,
            _ => 0,
        };
        let nodes = self.nodes;
        let mut at = 1;
        (0..len).map(move |_| {
            let key = match nodes[at] {
                Node::String(key) => key,
                _ => "",
            };
            let n = size(&nodes[at + 1]);
            let value = TapeValue {
                nodes: &nodes[at + 1..at + 1 + n],
            };
            at += 1 + n;
            (key, value)
        })
    }

    /// Elements of an array or keys of an object.
    pub fn len(&self) -> usize {
        match self.head() {
            Node::Array { len, .. } | Node::Object { len, .. } => *len,
            _ => 0,
        }
    }

    /// The number, if it is a whole number of 2^63 or more read as a double: past 64
    /// bits, its digits may not all be held.
    pub fn wide(&self) -> Option<f64> {
        match self.head() {
            Node::Static(StaticNode::F64(n)) if is_wide(*n) => Some(*n),
            _ => None,
        }
    }

    /// The nodes it takes on the tape, itself and everything inside it: no more than
    /// the characters of its compact JSON, where each prints at least one.
    pub fn nodes(&self) -> usize {
        self.nodes.len()
    }

    /// No elements or members (or a scalar).
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The member with `key` (the last one, as with duplicate keys a parser keeps).
    pub fn get(&self, key: &str) -> Option<TapeValue<'t, 'i>> {
        self.member(key).0
    }

    /// The member with `key` (the last one), and whether another member has that key.
    fn member(&self, key: &str) -> (Option<TapeValue<'t, 'i>>, bool) {
        let mut last = None;
        let mut duplicated = false;
        for (k, value) in self.members() {
            if k == key {
                duplicated |= last.is_some();
                last = Some(value);
            }
        }
        (last, duplicated)
    }

    /// Calls `found` with every value `steps` lead to (`[]` fans out).
    pub fn select(&self, steps: &[Step], found: &mut dyn FnMut(TapeValue<'t, 'i>)) {
        self.select_counting(steps, found, &mut 0);
    }

    /// [`TapeValue::select`], adding to `duplicated` each key on the way that its
    /// object has more than once (the last member of it is read): a filter's answer
    /// would differ by which one a reader took.
    pub fn select_counting(
        &self,
        steps: &[Step],
        found: &mut dyn FnMut(TapeValue<'t, 'i>),
        duplicated: &mut u64,
    ) {
        let Some((step, rest)) = steps.split_first() else {
            found(*self);
            return;
        };
        match step {
            Step::Key(key) => {
                let (value, twice) = self.member(key);
                *duplicated += u64::from(twice);
                if let Some(value) = value {
                    value.select_counting(rest, found, duplicated);
                }
            }
            Step::Index(index) => {
                if let Some(value) = self.elements().nth(*index) {
                    value.select_counting(rest, found, duplicated);
                }
            }
            Step::Each => {
                (self.elements()).for_each(|value| value.select_counting(rest, found, duplicated))
            }
        }
    }

    /// The first value `steps` lead to, counting duplicated keys on the way as
    /// [`TapeValue::select_counting`] does.
    pub fn first(&self, steps: &[Step], duplicated: &mut u64) -> Option<TapeValue<'t, 'i>> {
        let mut first = None;
        let found = &mut |value| {
            if first.is_none() {
                first = Some(value);
            }
        };
        self.select_counting(steps, found, duplicated);
        first
    }

    /// As a `serde_json::Value`, strings longer than `max_string_chars` cut with the
    /// core's marker. Callers check `deeper_than` first: this recurses.
    pub fn to_json(&self, convert: &mut Convert) -> Value {
        match self.head() {
            Node::String(s) => {
                let cut = cut_str(s, convert.max_string_chars);
                if cut.len() != s.len() {
                    convert.cut_strings += 1;
                }
                Value::String(cut.into_owned())
            }
            Node::Static(node) => static_json(node, convert),
            Node::Array { .. } => {
                Value::Array(self.elements().map(|v| v.to_json(convert)).collect())
            }
            Node::Object { .. } => {
                let mut map = Map::with_capacity(self.len());
                for (key, value) in self.members() {
                    if map
                        .insert(key.to_string(), value.to_json(convert))
                        .is_some()
                    {
                        convert.duplicate_keys += 1;
                    }
                }
                Value::Object(map)
            }
        }
    }

    /// The scalar as text for matching and grouping: strings as they are, everything
    /// else as compact JSON (containers cut to `max_chars`).
    pub fn text(&self, max_chars: usize) -> String {
        match self.as_str() {
            Some(s) => s.to_string(),
            None => {
                let mut convert = Convert::new(max_chars);
                let json = self.to_json(&mut convert).to_string();
                cut_str(&json, max_chars).into_owned()
            }
        }
    }
}

fn static_json(node: &StaticNode, convert: &mut Convert) -> Value {
    match *node {
        StaticNode::Null => Value::Null,
        StaticNode::Bool(b) => Value::Bool(b),
        StaticNode::I64(n) => Value::Number(n.into()),
        StaticNode::U64(n) => Value::Number(n.into()),
        StaticNode::F64(n) => {
            convert.wide.note(is_wide(n).then_some(n));
            Number::from_f64(n).map_or(Value::Null, Value::Number)
        }
    }
}

/// Whether a double read is a whole number of 2^63 or more (every double this large is
/// whole): an integer past 64 bits is read as the nearest double (`1e+23`), which may
/// not hold every digit written. (The largest double stands for a number beyond a
/// double's range, told of apart.)
fn is_wide(n: f64) -> bool {
    n.abs() >= WIDE && n.abs() != f64::MAX
}

/// 2^63: a whole number this large, as a double, may have been written with more digits
/// than a double holds.
const WIDE: f64 = 9_223_372_036_854_775_808.0;

/// How many of a kind were met, and the first of them (what a warning quotes).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Tally<T> {
    /// How many.
    pub count: u64,
    /// The first.
    pub first: Option<T>,
}

impl<T> Tally<T> {
    /// Counts `count` more, `first` the first of them when none came before.
    pub fn add(&mut self, count: u64, first: impl FnOnce() -> Option<T>) {
        if count > 0 {
            self.count += count;
            if self.first.is_none() {
                self.first = first();
            }
        }
    }

    /// Counts one more if there is `one`.
    pub fn note(&mut self, one: Option<T>) {
        if let Some(one) = one {
            self.add(1, || Some(one));
        }
    }
}

/// Whole numbers of 2^63 or more ([`TapeValue::wide`]) that options compared, grouped
/// or sorted by: as their nearest doubles, numbers alike in their first 17 digits are
/// equal to them.
pub type WideRead = Tally<f64>;

/// What converting values to `serde_json::Value` altered.
#[derive(Debug, Clone, Default)]
pub struct Convert {
    /// Strings longer than this many characters are cut.
    pub max_string_chars: usize,
    /// Strings cut.
    pub cut_strings: u64,
    /// Members dropped because a later one had the same key.
    pub duplicate_keys: u64,
    /// Whole numbers of 2^63 or more (an integer beyond 64 bits, or written so: `1e20`),
    /// shown as the nearest double, which may not hold every digit written.
    pub wide: Tally<f64>,
}

impl Convert {
    /// Counting from zero, cutting strings at `max_string_chars`.
    pub fn new(max_string_chars: usize) -> Self {
        Convert {
            max_string_chars,
            ..Convert::default()
        }
    }
}

/// Whether the tape's containers nest deeper than `limit`, without recursion. A
/// container with too few nodes to reach past the limit is stepped over whole: a wide
/// value (a document of many small records) costs a walk of its first levels only.
pub fn deeper_than(nodes: &[Node<'_>], limit: usize) -> bool {
    // Where each open container ends (its last node's index + 1).
    let mut open: Vec<usize> = Vec::new();
    let mut at = 0;
    while at < nodes.len() {
        while open.last().is_some_and(|&end| end <= at) {
            open.pop();
        }
        if let Node::Object { count, .. } | Node::Array { count, .. } = nodes[at] {
            let depth = open.len() + 1;
            if depth > limit {
                return true;
            }
            // Its `count` nodes nest at most `count` levels below it.
            if depth + count <= limit {
                at += 1 + count;
                continue;
            }
            open.push(at + 1 + count);
        }
        at += 1;
    }
    false
}

/// How deeply the tape's containers nest (0 for a scalar), without recursion.
#[cfg(test)]
pub fn depth(nodes: &[Node<'_>]) -> usize {
    // Where each open container ends (its last node's index + 1).
    let mut open: Vec<usize> = Vec::new();
    let mut deepest = 0;
    for (at, node) in nodes.iter().enumerate() {
        while open.last().is_some_and(|&end| end <= at) {
            open.pop();
        }
        if let Node::Object { count, .. } | Node::Array { count, .. } = node {
            open.push(at + 1 + count);
            deepest = deepest.max(open.len());
        }
    }
    deepest
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::path::Path;

    fn with_tape<T>(json: &str, f: impl FnOnce(TapeValue<'_, '_>) -> T) -> T {
        let mut bytes = json.as_bytes().to_vec();
        let tape = simd_json::to_tape(&mut bytes).unwrap();
        f(TapeValue::root(&tape.0))
    }

    #[test]
    fn a_value_has_no_more_nodes_than_its_compact_json_has_characters() {
        // The least each kind prints: an empty string, object and array, a digit, and
        // an empty key (a node of its own, printed with its quotes and colon).
        for json in [
            "\"\"",
            "0",
            "[]",
            "{}",
            "[0,[],{},\"\",[[[]]]]",
            r#"{"":{"":[]},"a":0}"#,
            "[null,true,false,-1,1.5]",
        ] {
            let nodes = with_tape(json, |root| root.nodes());
            let chars = serde_json::from_str::<Value>(json)
                .unwrap()
                .to_string()
                .len();
            assert!(nodes <= chars, "{json}: {nodes} nodes, {chars} characters");
        }
        assert_eq!(with_tape("[0,[],{}]", |root| root.nodes()), 4);
    }

    #[test]
    fn walks_objects_arrays_and_paths() {
        let json = r#"{"a":{"b":[1,{"c":"x"},[2,3]]},"d":null,"e":"long string here, long enough to cut"}"#;
        with_tape(json, |root| {
            assert_eq!(root.kind(), Kind::Object);
            assert_eq!(root.len(), 3);
            let b = root
                .first(&Path::parse("a.b").unwrap().steps, &mut 0)
                .unwrap();
            assert_eq!(b.len(), 3);
            assert_eq!(
                root.first(&Path::parse("a.b[1].c").unwrap().steps, &mut 0)
                    .unwrap()
                    .as_str(),
                Some("x")
            );
            let mut all = Vec::new();
            root.select(&Path::parse("a.b[2][]").unwrap().steps, &mut |v| {
                all.push(v.as_f64().unwrap())
            });
            assert_eq!(all, [2.0, 3.0]);
            assert_eq!(root.get("d").unwrap().kind(), Kind::Null);
            let mut convert = Convert::new(4);
            let value = root.to_json(&mut convert);
            assert_eq!(value["e"], "long…[cut 32 chars]");
            assert_eq!(value["a"]["b"][2][1], 3);
            assert_eq!(convert.cut_strings, 1);
            assert_eq!(depth(&[]), 0);
        });
        with_tape("[[[]],[{}]]", |root| {
            assert_eq!(root.elements().count(), 2);
        });
        let mut deep = "[".repeat(5000);
        deep.push_str(&"]".repeat(5000));
        let mut bytes = deep.into_bytes();
        let tape = simd_json::to_tape(&mut bytes).unwrap();
        assert_eq!(depth(&tape.0), 5000);
    }

    #[test]
    fn keeps_the_last_of_duplicate_keys_and_counts_them() {
        with_tape(r#"{"a":1,"a":2}"#, |root| {
            let mut convert = Convert::new(100);
            assert_eq!(root.to_json(&mut convert), serde_json::json!({"a": 2}));
            assert_eq!(convert.duplicate_keys, 1);
            assert_eq!(root.get("a").unwrap().as_f64(), Some(2.0));
        });
    }
}

#[cfg(test)]
mod depth_tests {
    #[test]
    fn depth_of_objects() {
        for (json, want) in [
            (r#"{"a":{"b":1},"c":2}"#, 2),
            (r#"{"items":[{"a":1,"m":{"t":["x"]}},{"a":2}]}"#, 5),
            (
                r#"[[1,2,3,4,5,6],[[[[]]]],{"a":[{"b":[[]]}]},[[],[[[[[]]]]]]]"#,
                7,
            ),
            (r#"[1,2,[3,{"a":{"b":{}}},4],[5]]"#, 5),
            ("[]", 1),
            ("1", 0),
        ] {
            let mut bytes = json.as_bytes().to_vec();
            let tape = simd_json::to_tape(&mut bytes).unwrap();
            assert_eq!(super::depth(&tape.0), want, "{json}");
            for limit in 0..=want + 1 {
                assert_eq!(super::deeper_than(&tape.0, limit), want > limit, "{json}");
            }
        }
    }
}
