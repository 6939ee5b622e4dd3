//! Decoding and encoding MCP messages by the clock, in one run: every public way to decode a
//! message with mcp-typed (`FromStr`, serde's `from_str`, `from_slice`, `from_reader`, and
//! `from_value` from a parsed value; the borrowed family's `parse`, `from_str` and `from_slice`),
//! each against its own floor (serde_json's parse of the same input into `IgnoredAny`; for
//! `from_value`, a clone of the `Value`), with serde_json's `Value` and rmcp beside them;
//! encoding against `Value`'s. A reference row, the floor plus a `String` for every string
//! value, shows what keeping the strings alone costs any decoder of owned types.
//!
//! `scripts/bench-decode.sh` runs it. Each round times one pass of every codec over each
//! direction's whole corpus, in a rotated order (interleaved, so that a slow stretch of the
//! machine hits every codec alike); a codec's ratio is its time over the floor's in the same
//! round, and the table gives the median over the rounds with the lowest and highest.

#[path = "../../generated/benches/corpus/mod.rs"]
mod corpus;

use std::hint::black_box;
use std::time::{Duration, Instant};

use serde::de::{DeserializeOwned, IgnoredAny};
use serde::Serialize;
use serde_json::Value;

mod replay;

#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

#[cfg(feature = "alloc-replay")]
#[global_allocator]
static ALLOCATOR: replay::Recording = replay::Recording;

/// A sub-corpus decoded as one message type.
struct Part {
    texts: Vec<String>,
    /// Times one pass of `codec` over the texts.
    run: fn(&Part, Codec) -> Duration,
    values: Vec<Value>,
    /// Per text, the allocator calls that decoding it with `FromStr` (and dropping the message)
    /// makes: recorded with `--features alloc-replay`, else empty.
    allocations: Vec<Vec<replay::Step>>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Codec {
    Floor,
    FloorSlice,
    FloorReader,
    AllocReplay,
    OwnedStrings,
    Value,
    FromStr,
    SerdeFromStr,
    SerdeFromSlice,
    SerdeFromReader,
    FromValue,
    ValueClone,
    BorrowedParse,
    BorrowedFromStr,
    BorrowedFromSlice,
    Rmcp,
    EncodeValue,
    EncodeTyped,
}

const CODECS: [(Codec, &str); 18] = [
    (Codec::Floor, "serde_json::from_str::<IgnoredAny> (floor)"),
    (Codec::FloorSlice, "serde_json::from_slice::<IgnoredAny>"),
    (
        Codec::FloorReader,
        "serde_json::from_reader::<_, IgnoredAny>",
    ),
    (
        Codec::AllocReplay,
        "reference: the floor, then the allocations of `FromStr`'s message replayed",
    ),
    (
        Codec::OwnedStrings,
        "reference: the floor, every string value copied to a String",
    ),
    (Codec::Value, "serde_json::from_str::<Value>"),
    (Codec::FromStr, "text.parse::<M>() (FromStr)"),
    (Codec::SerdeFromStr, "serde_json::from_str::<M>"),
    (
        Codec::SerdeFromSlice,
        "serde_json::from_slice::<M> (× from_slice floor)",
    ),
    (
        Codec::SerdeFromReader,
        "serde_json::from_reader::<_, M> (× from_reader floor)",
    ),
    (
        Codec::FromValue,
        "M::from_value(value.clone()) (× the clone alone)",
    ),
    (Codec::ValueClone, "value.clone() (the floor of from_value)"),
    (Codec::BorrowedParse, "borrowed: MRef::parse(text)"),
    (
        Codec::BorrowedFromStr,
        "borrowed: serde_json::from_str::<MRef>",
    ),
    (
        Codec::BorrowedFromSlice,
        "borrowed: serde_json::from_slice::<MRef> (× from_slice floor)",
    ),
    (Codec::Rmcp, "rmcp 3.11.0 (serde_json::from_str)"),
    (Codec::EncodeValue, "encode: serde_json::to_string(&Value)"),
    (Codec::EncodeTyped, "encode: serde_json::to_string(&M)"),
];

/// Every string value of a JSON text, each copied to a `String`: what any decoder pays that
/// keeps the strings of a message as `String`s (keys are not kept), on top of the parse floor.
struct OwnedStrings(#[allow(dead_code)] Vec<String>);

impl<'de> serde::Deserialize<'de> for OwnedStrings {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let mut strings = Vec::new();
        serde::de::DeserializeSeed::deserialize(Strings(&mut strings), deserializer)?;
        Ok(OwnedStrings(strings))
    }
}

struct Strings<'a>(&'a mut Vec<String>);

impl<'de> serde::de::DeserializeSeed<'de> for Strings<'_> {
    type Value = ();
    fn deserialize<D: serde::Deserializer<'de>>(self, deserializer: D) -> Result<(), D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> serde::de::Visitor<'de> for Strings<'_> {
    type Value = ();
    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }
    fn visit_bool<E>(self, _: bool) -> Result<(), E> {
        Ok(())
    }
    fn visit_i64<E>(self, _: i64) -> Result<(), E> {
        Ok(())
    }
    fn visit_u64<E>(self, _: u64) -> Result<(), E> {
        Ok(())
    }
    fn visit_f64<E>(self, _: f64) -> Result<(), E> {
        Ok(())
    }
    fn visit_unit<E>(self) -> Result<(), E> {
        Ok(())
    }
    fn visit_str<E>(self, text: &str) -> Result<(), E> {
        self.0.push(text.to_owned());
        Ok(())
    }
    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<(), A::Error> {
        while seq.next_element_seed(Strings(&mut *self.0))?.is_some() {}
        Ok(())
    }
    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<(), A::Error> {
        while map.next_key::<IgnoredAny>()?.is_some() {
            map.next_value_seed(Strings(&mut *self.0))?;
        }
        Ok(())
    }
}

/// The message type `M` of a part, its borrowed form, its direction's rmcp type `R`, and what
/// `from_value` is.
trait Message: DeserializeOwned + Serialize + std::str::FromStr + PartialEq + std::fmt::Debug {
    type Ref<'a>: serde::Deserialize<'a> + Serialize + IntoOwned<Owned = Self>;
    type Rmcp: DeserializeOwned;
    fn from_value(value: Value) -> Option<Self>;
    fn parse_ref(text: &str) -> Option<Self::Ref<'_>>;
}

macro_rules! message {
    ($m:ty, $borrowed:ident, $rmcp:ty) => {
        impl Message for $m {
            type Ref<'a> = $borrowed<'a>;
            type Rmcp = $rmcp;
            fn from_value(value: Value) -> Option<Self> {
                <$m>::from_value(value).ok()
            }
            fn parse_ref(text: &str) -> Option<$borrowed<'_>> {
                $borrowed::parse(text).ok()
            }
        }
    };
}
use mcp_typed::borrowed::IntoOwned;
use mcp_typed::v2025_11_25::borrowed::{
    ClientMessageRef as Client2025Ref, ServerMessageRef as Server2025Ref,
};
use mcp_typed::v2026_07_28::borrowed::{
    ClientMessageRef as Client2026Ref, ServerMessageRef as Server2026Ref,
};
message!(
    mcp_typed::v2025_11_25::ClientMessage,
    Client2025Ref,
    rmcp::model::ClientJsonRpcMessage
);
message!(
    mcp_typed::v2025_11_25::ServerMessage,
    Server2025Ref,
    rmcp::model::ServerJsonRpcMessage
);
message!(
    mcp_typed::v2026_07_28::ClientMessage,
    Client2026Ref,
    rmcp::model::ClientJsonRpcMessage
);
message!(
    mcp_typed::v2026_07_28::ServerMessage,
    Server2026Ref,
    rmcp::model::ServerJsonRpcMessage
);

/// Passes over the corpus per timing: enough that a timing lasts milliseconds.
const PASSES: u32 = 200;

fn time<T>(texts: &[String], mut decode: impl FnMut(&str) -> T) -> Duration {
    let start = Instant::now();
    for _ in 0..PASSES {
        for text in texts {
            black_box(decode(black_box(text)));
        }
    }
    start.elapsed()
}

fn run<M: Message>(part: &Part, codec: Codec) -> Duration
where
    <M as std::str::FromStr>::Err: std::fmt::Debug,
{
    let (texts, values) = (&part.texts, &part.values);
    match codec {
        Codec::Floor => time(texts, |t| serde_json::from_str::<IgnoredAny>(t).unwrap()),
        Codec::FloorSlice => time(texts, |t| {
            serde_json::from_slice::<IgnoredAny>(t.as_bytes()).unwrap()
        }),
        Codec::FloorReader => time(texts, |t| {
            serde_json::from_reader::<_, IgnoredAny>(t.as_bytes()).unwrap()
        }),
        Codec::AllocReplay => {
            let mut blocks = Vec::new();
            let start = Instant::now();
            for _ in 0..PASSES {
                for (text, steps) in texts.iter().zip(&part.allocations) {
                    black_box(serde_json::from_str::<IgnoredAny>(black_box(text)).unwrap());
                    replay::replay(steps, &mut blocks);
                }
            }
            start.elapsed()
        }
        Codec::OwnedStrings => time(texts, |t| serde_json::from_str::<OwnedStrings>(t).unwrap()),
        Codec::Value => time(texts, |t| serde_json::from_str::<Value>(t).unwrap()),
        Codec::FromStr => time(texts, |t| t.parse::<M>().unwrap()),
        Codec::SerdeFromStr => time(texts, |t| serde_json::from_str::<M>(t).unwrap()),
        Codec::SerdeFromSlice => time(texts, |t| {
            serde_json::from_slice::<M>(t.as_bytes()).unwrap()
        }),
        Codec::SerdeFromReader => time(texts, |t| {
            serde_json::from_reader::<_, M>(t.as_bytes()).unwrap()
        }),
        // `from_value` consumes its value: each is cloned just before, as hot in the cache as a
        // value a user has just parsed; its floor is the clone (with its drop) alone.
        Codec::FromValue => time_clones(values, |value| {
            black_box(M::from_value(value).unwrap());
        }),
        Codec::ValueClone => time_clones(values, drop),
        // A borrowed message cannot leave the closure that holds its text: dropped inside.
        Codec::BorrowedParse => time(texts, |t| {
            black_box(M::parse_ref(t).unwrap());
        }),
        Codec::BorrowedFromStr => time(texts, |t| {
            black_box(serde_json::from_str::<M::Ref<'_>>(t).unwrap());
        }),
        Codec::BorrowedFromSlice => time(texts, |t| {
            black_box(serde_json::from_slice::<M::Ref<'_>>(t.as_bytes()).unwrap());
        }),
        // rmcp refuses some messages (those of 2026-07-28 it does not know); it is timed on what
        // it accepts, in a part of its own.
        Codec::Rmcp => time(texts, |t| serde_json::from_str::<M::Rmcp>(t).ok()),
        Codec::EncodeValue => {
            let start = Instant::now();
            for _ in 0..PASSES {
                for value in values {
                    black_box(serde_json::to_string(value).unwrap());
                }
            }
            start.elapsed()
        }
        Codec::EncodeTyped => {
            let typed: Vec<M> = texts.iter().map(|t| t.parse().unwrap()).collect();
            let start = Instant::now();
            for _ in 0..PASSES {
                for message in &typed {
                    black_box(serde_json::to_string(message).unwrap());
                }
            }
            start.elapsed()
        }
    }
}

/// Times `PASSES` passes of `consume` over fresh clones of the values, the clones included.
fn time_clones(values: &[Value], mut consume: impl FnMut(Value)) -> Duration {
    let start = Instant::now();
    for _ in 0..PASSES {
        for value in values {
            consume(black_box(value.clone()));
        }
    }
    start.elapsed()
}

/// A part for message type `M`, after checking that every entry point gives the same message
/// and that it re-encodes to the text.
fn part<M: Message>(texts: Vec<String>) -> Part
where
    <M as std::str::FromStr>::Err: std::fmt::Debug,
{
    let values: Vec<Value> = texts
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    for (text, value) in texts.iter().zip(&values) {
        let short = &text[..text.len().min(120)];
        let parsed: M = text.parse().unwrap_or_else(|e| panic!("{e:?}: {short}"));
        let through_serde: M = serde_json::from_str(text).unwrap();
        assert!(
            parsed == through_serde,
            "FromStr and from_str differ: {short}"
        );
        assert!(
            M::from_value(value.clone()).as_ref() == Some(&parsed),
            "from_value: {short}"
        );
        let borrowed = M::parse_ref(text).unwrap_or_else(|| panic!("borrowed: {short}"));
        assert!(
            serde_json::to_string(&borrowed).unwrap() == serde_json::to_string(&parsed).unwrap(),
            "borrowed encodes differently: {short}"
        );
        assert!(
            borrowed.into_owned() == parsed,
            "borrowed, made owned: {short}"
        );
        // The types write members in their own order, so the comparison is of values.
        assert!(
            serde_json::to_value(&parsed).unwrap() == *value,
            "re-encoded differently: {short}"
        );
    }
    let allocations = texts
        .iter()
        .map(|text| replay::record(|| text.parse::<M>()))
        .collect();
    Part {
        texts,
        run: run::<M>,
        values,
        allocations,
    }
}

/// Only the texts rmcp decodes, for its own row.
fn rmcp_part<M: Message>(texts: &[String]) -> Part
where
    <M as std::str::FromStr>::Err: std::fmt::Debug,
{
    let accepted: Vec<String> = texts
        .iter()
        .filter(|t| serde_json::from_str::<M::Rmcp>(t).is_ok())
        .cloned()
        .collect();
    let values = accepted
        .iter()
        .map(|t| serde_json::from_str(t).unwrap())
        .collect();
    Part {
        texts: accepted,
        run: run::<M>,
        values,
        allocations: Vec::new(),
    }
}

struct Direction {
    name: &'static str,
    parts: Vec<Part>,
    /// The same parts, cut to what rmcp accepts.
    rmcp: Vec<Part>,
}

impl Direction {
    fn messages(&self) -> usize {
        self.parts.iter().map(|p| p.texts.len()).sum()
    }
    fn bytes(&self) -> usize {
        self.parts
            .iter()
            .flat_map(|p| &p.texts)
            .map(String::len)
            .sum()
    }
    fn time(&self, codec: Codec) -> Duration {
        let parts = if codec == Codec::Rmcp {
            &self.rmcp
        } else {
            &self.parts
        };
        parts.iter().map(|p| (p.run)(p, codec)).sum()
    }
    /// The floor on what rmcp accepts.
    fn rmcp_floor(&self) -> Duration {
        self.rmcp.iter().map(|p| (p.run)(p, Codec::Floor)).sum()
    }
}

fn direction<C: Message, S: Message>(
    name: &'static str,
    mut texts_2025: Vec<String>,
    mut texts_2026: Vec<String>,
) -> Direction
where
    <C as std::str::FromStr>::Err: std::fmt::Debug,
    <S as std::str::FromStr>::Err: std::fmt::Debug,
{
    // `BENCH_ORDER=kind`: the messages of one kind one after the other, rather than in the order
    // traffic brings them, to see whether mixing kinds costs time of its own.
    if std::env::var("BENCH_ORDER").as_deref() == Ok("kind") {
        texts_2025.sort_by_cached_key(|text| kind(text));
        texts_2026.sort_by_cached_key(|text| kind(text));
    }
    let rmcp = vec![rmcp_part::<C>(&texts_2025), rmcp_part::<S>(&texts_2026)];
    Direction {
        name,
        parts: vec![part::<C>(texts_2025), part::<S>(texts_2026)],
        rmcp,
    }
}

/// The kind of a message, for `BENCH_DETAIL`: its method, or the members that name its result.
fn kind(text: &str) -> String {
    let value: Value = serde_json::from_str(text).expect("the corpus is JSON");
    if let Some(method) = value.get("method").and_then(Value::as_str) {
        return method.to_owned();
    }
    match value.get("result").and_then(Value::as_object) {
        Some(result) => {
            // The first two members in name order, `_meta` aside: `{content,isError}`.
            let mut names: Vec<&str> = result
                .keys()
                .map(String::as_str)
                .filter(|name| !name.starts_with('_'))
                .collect();
            names.sort_unstable();
            names.truncate(2);
            format!("result {{{}}}", names.join(","))
        }
        None => "error".to_owned(),
    }
}

/// `BENCH_DETAIL=1`: where `FromStr` spends its time over the floor, by kind of message (both
/// directions together): each kind's share of the corpus, its own ratio to the floor (median of
/// interleaved rounds), and its share of all the time `FromStr` spends over the floor.
fn detail(directions: &[Direction], rounds: usize) {
    // kind → (messages, bytes, one `Part` per message type holding that kind's texts).
    let mut kinds: std::collections::BTreeMap<String, (usize, usize, Vec<Part>)> =
        std::collections::BTreeMap::new();
    for part in directions.iter().flat_map(|d| &d.parts) {
        let mut by_kind: std::collections::BTreeMap<String, (Vec<String>, Vec<Value>)> =
            std::collections::BTreeMap::new();
        for (text, value) in part.texts.iter().zip(&part.values) {
            let entry = by_kind.entry(kind(text)).or_default();
            entry.0.push(text.clone());
            entry.1.push(value.clone());
        }
        for (name, (texts, values)) in by_kind {
            let entry = kinds.entry(name).or_insert((0, 0, Vec::new()));
            entry.0 += texts.len();
            entry.1 += texts.iter().map(String::len).sum::<usize>();
            entry.2.push(Part {
                texts,
                run: part.run,
                values,
                allocations: Vec::new(),
            });
        }
    }
    let time = |parts: &[Part], codec| -> f64 {
        parts.iter().map(|p| (p.run)(p, codec).as_secs_f64()).sum()
    };
    // Per kind: the ratio of each round, and the time over the floor summed over the rounds.
    let mut ratios = vec![Vec::new(); kinds.len()];
    let mut excess = vec![0.0; kinds.len()];
    for round in 0..rounds {
        for (k, (_, _, parts)) in kinds.values().enumerate() {
            let (floor, typed) = if round % 2 == 0 {
                let floor = time(parts, Codec::Floor);
                (floor, time(parts, Codec::FromStr))
            } else {
                let typed = time(parts, Codec::FromStr);
                (time(parts, Codec::Floor), typed)
            };
            ratios[k].push(typed / floor);
            excess[k] += typed - floor;
        }
    }
    let total_excess: f64 = excess.iter().sum();
    let total_bytes: usize = kinds.values().map(|(_, bytes, _)| bytes).sum();
    struct Row<'a> {
        name: &'a str,
        messages: usize,
        bytes: usize,
        ratio: (f64, f64, f64),
        excess: f64,
    }
    let mut rows: Vec<Row> = kinds
        .iter()
        .zip(ratios)
        .zip(excess)
        .map(|(((name, (messages, bytes, _)), ratios), excess)| Row {
            name,
            messages: *messages,
            bytes: *bytes,
            ratio: median_and_range(ratios),
            excess,
        })
        .collect();
    rows.sort_by(|a, b| b.excess.total_cmp(&a.excess));
    println!("{rounds} interleaved rounds; `FromStr` by kind of message, by its share of the time over the floor");
    println!("| kind | messages | share of bytes | `FromStr` × floor [lowest–highest] | share of the time over the floor |");
    println!("|---|---|---|---|---|");
    for row in rows.iter().take(25) {
        let (median, low, high) = row.ratio;
        println!(
            "| `{}` | {} | {:.1} % | {median:.2} [{low:.2}–{high:.2}] | {:.1} % |",
            row.name,
            row.messages,
            100.0 * row.bytes as f64 / total_bytes as f64,
            100.0 * row.excess / total_excess
        );
    }
}

/// `BENCH_PROFILE=CODEC[,DIRECTION[,TEXT]]`: one codec alone over one direction's corpus (0,
/// server to client, by default; 1, client to server), or over its messages that contain TEXT,
/// for about ten seconds, for a sampling profiler (`perf record`). CODEC is a row's name as
/// `Debug` writes it: `FromStr`, `Floor`, `Value`…
fn profile(directions: &[Direction], spec: &str) {
    let mut fields = spec.splitn(3, ',');
    let name = fields.next().unwrap_or_default();
    let d: usize = fields
        .next()
        .map_or(0, |d| d.parse().expect("a direction: 0 or 1"));
    let needle = fields.next().unwrap_or_default();
    let (codec, _) = CODECS
        .iter()
        .find(|(codec, _)| format!("{codec:?}") == name)
        .unwrap_or_else(|| panic!("no codec named {name}"));
    let parts: Vec<Part> = directions[d]
        .parts
        .iter()
        .map(|part| {
            let (texts, values) = part
                .texts
                .iter()
                .zip(&part.values)
                .filter(|(text, _)| text.contains(needle))
                .map(|(text, value)| (text.clone(), value.clone()))
                .unzip();
            Part {
                texts,
                run: part.run,
                values,
                allocations: Vec::new(),
            }
        })
        .collect();
    let messages: usize = parts.iter().map(|p| p.texts.len()).sum();
    let start = Instant::now();
    let mut timings = 0;
    while start.elapsed() < Duration::from_secs(10) {
        for part in &parts {
            (part.run)(part, *codec);
        }
        timings += 1;
    }
    println!(
        "{name} over {messages} messages of {}: {timings} timings in 10 s",
        directions[d].name
    );
}

fn median_and_range(mut ratios: Vec<f64>) -> (f64, f64, f64) {
    ratios.sort_by(f64::total_cmp);
    (
        ratios[ratios.len() / 2],
        ratios[0],
        ratios[ratios.len() - 1],
    )
}

fn main() {
    use mcp_typed::{v2025_11_25, v2026_07_28};
    let rounds: usize = std::env::var("BENCH_ROUNDS")
        .ok()
        .and_then(|r| r.parse().ok())
        .unwrap_or(21);
    let [py_client_2025, py_server_2025, py_client_2026, py_server_2026] =
        corpus::python_sdk_traffic();
    let (ts_client_2025, ts_server_2025) = corpus::typescript_sdk_traffic();
    let (official_client, official_server) = corpus::official_corpus();
    let mut server_2025 = corpus::server_corpus();
    server_2025.extend(py_server_2025.into_iter().chain(ts_server_2025));
    let mut server_2026 = official_server;
    server_2026.extend(py_server_2026);
    let mut client_2025 = corpus::client_corpus();
    client_2025.extend(py_client_2025.into_iter().chain(ts_client_2025));
    let mut client_2026 = official_client;
    client_2026.extend(py_client_2026);
    let directions = [
        direction::<v2025_11_25::ServerMessage, v2026_07_28::ServerMessage>(
            "server -> client",
            server_2025,
            server_2026,
        ),
        direction::<v2025_11_25::ClientMessage, v2026_07_28::ClientMessage>(
            "client -> server",
            client_2025,
            client_2026,
        ),
    ];

    if let Ok(spec) = std::env::var("BENCH_PROFILE") {
        profile(&directions, &spec);
        return;
    }
    if std::env::var_os("BENCH_DETAIL").is_some() {
        detail(&directions, rounds);
        return;
    }
    // ratios[direction][codec]: one ratio to the floor per round.
    let mut ratios = vec![vec![Vec::new(); CODECS.len()]; directions.len()];
    let mut floors = vec![Vec::new(); directions.len()];
    for round in 0..rounds {
        for (d, direction) in directions.iter().enumerate() {
            let mut times = vec![Duration::ZERO; CODECS.len()];
            let mut rmcp_floor = Duration::ZERO;
            for k in 0..=CODECS.len() {
                let index = (k + round) % (CODECS.len() + 1);
                if index == CODECS.len() {
                    rmcp_floor = direction.rmcp_floor();
                } else {
                    times[index] = direction.time(CODECS[index].0);
                }
            }
            let floor = times[0].as_secs_f64();
            floors[d].push(direction.bytes() as f64 * f64::from(PASSES) / floor / 1e6);
            for (index, (codec, _)) in CODECS.iter().enumerate() {
                // Each entry point over its own floor: the parse of the same input.
                let own_floor = |floor: Codec| {
                    let at = CODECS.iter().position(|(c, _)| *c == floor).expect("a row");
                    times[index].as_secs_f64() / times[at].as_secs_f64()
                };
                let ratio = match codec {
                    Codec::Rmcp => times[index].as_secs_f64() / rmcp_floor.as_secs_f64(),
                    Codec::SerdeFromSlice | Codec::BorrowedFromSlice => {
                        own_floor(Codec::FloorSlice)
                    }
                    Codec::SerdeFromReader => own_floor(Codec::FloorReader),
                    Codec::FromValue => own_floor(Codec::ValueClone),
                    // Encoding is compared with encoding a `Value`.
                    Codec::EncodeTyped => {
                        times[index].as_secs_f64() / times[index - 1].as_secs_f64()
                    }
                    _ => times[index].as_secs_f64() / floor,
                };
                ratios[d][index].push(ratio);
            }
        }
    }

    println!(
        "{rounds} interleaved rounds, each {PASSES} passes per codec; median ratio [lowest–highest]"
    );
    print!("| entry point |");
    for direction in &directions {
        print!(
            " {} ({} msgs, {} kB) |",
            direction.name,
            direction.messages(),
            direction.bytes() / 1000
        );
    }
    println!("\n|---|---|---|");
    for (index, (codec, name)) in CODECS.iter().enumerate() {
        let unit = match codec {
            Codec::EncodeValue | Codec::ValueClone => continue,
            Codec::AllocReplay if !cfg!(feature = "alloc-replay") => continue,
            Codec::EncodeTyped => "× `Value`'s encode",
            Codec::Floor => "",
            _ => "× floor",
        };
        print!("| {name} |");
        for (d, direction) in directions.iter().enumerate() {
            if *codec == Codec::Floor {
                let (median, low, high) = median_and_range(floors[d].clone());
                print!(" {median:.0} MB/s [{low:.0}–{high:.0}] |");
                continue;
            }
            let (median, low, high) = median_and_range(ratios[d][index].clone());
            let note = if *codec == Codec::Rmcp {
                let accepted: usize = direction.rmcp.iter().map(|p| p.texts.len()).sum();
                format!(" ({accepted} msgs it decodes)")
            } else {
                String::new()
            };
            print!(" {median:.2}{unit} [{low:.2}–{high:.2}]{note} |");
        }
        println!();
    }
}
