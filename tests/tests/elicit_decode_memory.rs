//! `from_json_str` frees all it allocates. Its reader drops by hand only the members that own
//! memory (see `Content` in `elicit/decode`), and a report without errors is let go without its
//! drop glue; this counts the bytes live before and after each decode, through an allocator
//! that keeps the tally (dhat's), on texts that take every path: strings with escapes
//! (owned), arrays, numbers serde_json converts, errors, undeclared members, texts the scan
//! gives up on, and malformed ones. The tally is process-wide, so this binary has no test harness
//! (`harness = false`): libtest would run the check on a thread of its own while its main thread
//! allocates (the test table, the terminal it reports to), and those bytes would count here.

use std::collections::BTreeSet;

use mcp_typed::Elicit;

#[global_allocator]
static ALLOCATOR: dhat::Alloc = dhat::Alloc;

/// The bytes on the heap now.
fn live() -> usize {
    dhat::HeapStats::get().curr_bytes
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, Elicit)]
#[serde(rename_all = "lowercase")]
enum Colour {
    Red,
    Green,
}

#[allow(dead_code)] // built, never read
#[derive(Debug, Elicit)]
#[serde(deny_unknown_fields)]
struct Form {
    #[elicit(max_length = 8)]
    name: String,
    note: Option<String>,
    #[elicit(maximum = 100)]
    count: Option<i64>,
    ratio: Option<f64>,
    colours: Option<Vec<Colour>>,
    favourites: Option<BTreeSet<Colour>>,
    #[serde(rename = "quo\"ted")]
    quoted: Option<bool>,
}

fn main() {
    let _profiler = dhat::Profiler::builder().testing().build();
    let texts = [
        // Valid, in the form's order and not, with escapes in strings and keys.
        r#"{"name":"ada","note":"a\nb","count":3,"ratio":0.5,"colours":["red"],"favourites":["green","red"],"quo\"ted":true}"#,
        r#"{"quo\"ted":false,"favourites":[],"colours":["r\u0065d","green"],"name":"\u00e9"}"#,
        r#"{"name":"x","count":1e2,"ratio":-0,"note":"\ud83d\ude00"}"#,
        // Invalid: errors with owned pointers and messages, undeclared members.
        r#"{"name":"far too long a name","count":101,"colours":["blue","red",7],"extra":{"a":[1]}}"#,
        r#"{"note":null,"count":1.5,"ratio":"half","favourites":"red","other":"o\"ther"}"#,
        r#"{"name":7,"colours":[["red"]],"zz":1,"yy":2,"xx":3}"#,
        // What the scan gives up on (serde_json reads it), and not an object.
        r#"{"name":"ada","note":{"nested":"object"},"count":123456789012345678901234567890}"#,
        r#"["name"]"#,
        // Malformed, after members that own memory were read.
        r#"{"note":"a\tb","colours":["red","green"],"name":"#,
        r#"{"note":"a\tb","colours":["red"],"#,
        r#"{"name":"\ud800"}"#,
    ];
    for _ in 0..3 {
        for text in texts {
            let before = live();
            drop(Form::from_json_str(text));
            let after = live();
            assert_eq!(after, before, "bytes live after and before {text}");
        }
    }
    // The tally counts: a decode that keeps its value holds memory until it is dropped.
    let before = live();
    let kept = Form::from_json_str(r#"{"name":"ada","note":"a\nb"}"#).expect("valid");
    assert!(live() > before);
    drop(kept);
    assert_eq!(live(), before);
    println!(
        "from_json_str frees all it allocates: {} texts, 3 rounds each",
        texts.len()
    );
}
