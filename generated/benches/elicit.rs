//! Checking the `content` of accepted elicitation forms: `#[derive(Elicit)]` and the dynamic
//! `RequestedSchema::validate`, as time ratios against the `jsonschema` crate (format assertion
//! on) measured in the same run, on the same schemas (`T::requested_schema()` as JSON) and the
//! same contents:
//!
//! 1. jsonschema: `serde_json::from_str::<Value>` + `Validator::is_valid` (drop included);
//! 2. derived `T::from_json_str` (parse + validate + build, drop included);
//! 3. derived `T::from_content` on a parsed `Map` (validate + build, drop included);
//! 4. jsonschema `Validator::is_valid` on the parsed `Value`;
//! 5. dynamic validation on the parsed `Map`: a `Validator` made once from the schema (its
//!    patterns compiled once, as jsonschema compiles its validator once), `Validator::validate`;
//! 6. the same `Validator`'s `is_valid`: a yes or no that stops at the first violation, as
//!    jsonschema's `is_valid` does.
//!
//! Reported: (2)/(1) (goal ≤ 1/3), (3)/(4) (no goal: it builds `T`, the other only answers yes
//! or no), (5)/(4) (goal ≤ 1/2; it reports every error, the other stops at the first) and
//! (6)/(4) (the like-for-like comparison), per form, for valid and invalid contents, and
//! overall. Before any timing every content is checked to get the same verdict from (1) to (6)
//! and the verdict written next to it, so every row does the same work.
//!
//! `cargo bench -p mcp-typed --bench elicit --features derive`; `BENCH_DETAIL=1` adds a line per content.
//! `BENCH_ONLY=<form>[/valid|/invalid]:<codec>` (scripts/bench-instructions.sh) runs one codec
//! 100 times over one form's contents (or its valid or invalid ones) and nothing else, for an
//! instruction count under callgrind; the codecs are `jsonschema-decode`, `decode`,
//! `from-content`, `jsonschema`, `validate` and `is-valid` as (1) to (6), and `none` (the setup
//! alone, which includes the agreement check and so a first call of each codec).

use std::collections::BTreeSet;
use std::hint::black_box;
use std::time::{Duration, Instant};

use mcp_typed::elicit::{Elicit, RequestedSchema};
use serde_json::{Map, Value};

// ---------------------------------------------------------------------------------------------
// The forms.

/// The contact form of the specification (2025-06-18, "Elicitation").
#[allow(dead_code)] // the fields are built, never read
#[derive(Debug, mcp_typed::Elicit)]
struct Contact {
    /// Your full name
    name: String,
    /// Your email address
    #[elicit(format = "email")]
    email: String,
    /// Your age
    #[elicit(minimum = 18)]
    age: Option<u32>,
}

#[derive(Debug, mcp_typed::Elicit)]
#[serde(rename_all = "lowercase")]
enum Plan {
    #[elicit(title = "Free")]
    Free,
    #[elicit(title = "Pro, billed monthly")]
    Pro,
    #[elicit(title = "Team, up to 20 seats")]
    Team,
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, mcp_typed::Elicit)]
#[serde(rename_all = "lowercase")]
enum Topic {
    Rust,
    Go,
    Python,
    TypeScript,
    Databases,
}

/// A signup and preferences form: pattern, lengths, the three string formats of a profile,
/// integer and number bounds, a titled single select, a multi select with bounds, optionals.
#[allow(dead_code)] // the fields are built, never read
#[derive(Debug, mcp_typed::Elicit)]
#[serde(rename_all = "camelCase")]
struct Signup {
    /// Lower-case letters, digits and underscores, starting with a letter
    #[elicit(
        title = "Username",
        min_length = 3,
        max_length = 16,
        pattern = "^[a-z][a-z0-9_]*$"
    )]
    username: String,
    #[elicit(title = "Display name", max_length = 50)]
    display_name: Option<String>,
    #[elicit(title = "Email", format = "email")]
    email: String,
    #[elicit(title = "Birthday", format = "date")]
    birthday: Option<String>,
    #[elicit(title = "Website", format = "uri")]
    website: Option<String>,
    #[elicit(title = "Age", minimum = 13, maximum = 120)]
    age: u8,
    #[elicit(title = "Plan", default = "free")]
    plan: Plan,
    #[elicit(title = "Interests", min_items = 1, max_items = 3, default = ["rust"])]
    interests: Vec<Topic>,
    #[elicit(title = "Weekly newsletter", default = false)]
    newsletter: Option<bool>,
    #[elicit(title = "Notification volume", minimum = 0.0, maximum = 1.0)]
    volume: Option<f64>,
}

#[derive(Debug, mcp_typed::Elicit)]
#[serde(rename_all = "lowercase")]
enum Room {
    Atlas,
    Borealis,
    Kiosk,
}

#[derive(Debug, PartialEq, Eq, PartialOrd, Ord, mcp_typed::Elicit)]
#[serde(rename_all = "lowercase")]
enum Person {
    #[elicit(title = "Ada Lovelace")]
    Ada,
    #[elicit(title = "Grace Hopper")]
    Grace,
    #[elicit(title = "Alan Turing")]
    Alan,
    #[elicit(title = "Edsger Dijkstra")]
    Edsger,
}

/// A meeting form: date-time, an untitled single select, a titled multi select into a set.
#[allow(dead_code)] // the fields are built, never read
#[derive(Debug, mcp_typed::Elicit)]
#[serde(rename_all = "camelCase")]
struct Meeting {
    #[elicit(title = "Subject", min_length = 1, max_length = 120)]
    subject: String,
    #[elicit(title = "Start", format = "date-time")]
    start: String,
    #[elicit(
        title = "Duration (minutes)",
        minimum = 15,
        maximum = 480,
        default = 30
    )]
    duration_minutes: u32,
    #[elicit(title = "Room")]
    room: Room,
    #[elicit(title = "Attendees", max_items = 4)]
    attendees: Option<BTreeSet<Person>>,
    #[elicit(title = "Agenda", max_length = 2000)]
    agenda: Option<String>,
    #[elicit(title = "Repeats weekly")]
    recurring: bool,
}

/// A yes/no confirmation.
#[allow(dead_code)] // the fields are built, never read
#[derive(Debug, mcp_typed::Elicit)]
struct Confirm {
    /// Deploy the release to production now?
    #[elicit(title = "Confirm")]
    confirm: bool,
    #[elicit(title = "Do not ask again", default = false)]
    remember: Option<bool>,
}

/// The contents of each form as a client sends them (members in the form's order, compact),
/// each with its expected validity.
fn contents(form: &str) -> Vec<(bool, &'static str)> {
    match form {
        "contact" => vec![
            (
                true,
                r#"{"name":"Ada Lovelace","email":"ada@example.com","age":36}"#,
            ),
            (
                true,
                r#"{"name":"Grace Hopper","email":"grace.hopper@navy.example.mil"}"#,
            ),
            (
                true,
                r#"{"name":"Zoë Ñúñez","email":"zoe+mcp@mail.example.org","age":18}"#,
            ),
            (
                true,
                r#"{"name":"Ken","email":"ken@example.com","age":30.0,"nickname":"k"}"#,
            ),
            (
                false,
                r#"{"name":"Bob","email":"bob at example.com","age":40}"#,
            ),
            (
                false,
                r#"{"name":"Eve","email":"eve@example.com","age":17}"#,
            ),
            (false, r#"{"email":"anonymous@example.com"}"#),
            (
                false,
                r#"{"name":"Mallory","email":"m@example.com","age":"forty"}"#,
            ),
        ],
        "signup" => vec![
            (
                true,
                r#"{"username":"ada_l","displayName":"Ada L.","email":"ada@example.com","birthday":"1815-12-10","website":"https://ada.example.org/about?lang=en#bio","age":36,"plan":"pro","interests":["rust","databases"],"newsletter":true,"volume":0.75}"#,
            ),
            (
                true,
                r#"{"username":"grace","email":"grace@example.com","age":13,"plan":"free","interests":["go"]}"#,
            ),
            (
                true,
                r#"{"username":"linus_t2","email":"linus@kernel.example","birthday":"2000-02-29","age":120,"plan":"team","interests":["rust","go","python"],"newsletter":false,"volume":1}"#,
            ),
            (
                false,
                r#"{"username":"Ada!","email":"ada@example.com","age":36,"plan":"pro","interests":["rust"]}"#,
            ),
            (
                false,
                r#"{"username":"bob_b","email":"bob@example.com","birthday":"2001-02-29","website":"example.com/home","age":30,"plan":"free","interests":["go"]}"#,
            ),
            (
                false,
                r#"{"username":"carol","email":"carol@example.com","age":12,"plan":"enterprise","interests":["rust","go","python","databases"],"volume":1.5}"#,
            ),
            (
                false,
                r#"{"username":"dave","email":"dave@example.com","age":44,"plan":"pro","interests":[],"newsletter":"yes"}"#,
            ),
        ],
        "meeting" => vec![
            (
                true,
                r#"{"subject":"Quarterly planning","start":"2026-03-02T09:30:00Z","durationMinutes":90,"room":"atlas","attendees":["ada","grace","alan"],"agenda":"1. Review of the quarter\n2. Roadmap\n3. Hiring","recurring":false}"#,
            ),
            (
                true,
                r#"{"subject":"1:1","start":"2026-03-02T16:00:00.250+01:00","durationMinutes":30,"room":"kiosk","recurring":true}"#,
            ),
            (
                false,
                r#"{"subject":"Standup","start":"2026-03-02 09:30","durationMinutes":15,"room":"borealis","recurring":true}"#,
            ),
            (
                false,
                r#"{"subject":"","start":"2026-03-02T09:30:00Z","durationMinutes":10,"room":"atlas","attendees":["ada","mallory"],"recurring":false}"#,
            ),
            (
                false,
                r#"{"subject":"Retro","start":"2026-03-02T09:30:00Z","durationMinutes":60,"room":"cellar","recurring":"weekly"}"#,
            ),
        ],
        "confirm" => vec![
            (true, r#"{"confirm":true}"#),
            (true, r#"{"confirm":false,"remember":true}"#),
            (false, r#"{}"#),
            (false, r#"{"confirm":"true"}"#),
            (false, r#"{"confirm":null,"remember":false}"#),
        ],
        other => panic!("unknown form {other}"),
    }
}

const FORMS: [&str; 4] = ["contact", "signup", "meeting", "confirm"];

// ---------------------------------------------------------------------------------------------
// The six ways of checking a content.

/// One content of a form, in every shape the codecs take.
struct Case {
    valid: bool,
    text: &'static str,
    value: Value,
    map: Map<String, Value>,
}

/// A form with its schema, the jsonschema validator of that schema and the derived functions.
struct Form {
    name: &'static str,
    cases: Vec<Case>,
    schema: &'static RequestedSchema,
    prepared: mcp_typed::elicit::Validator<'static>,
    validator: jsonschema::Validator,
    decode: fn(&str) -> bool,
    from_content: fn(&Map<String, Value>) -> bool,
}

fn decode<T: Elicit>(text: &str) -> bool {
    let result = T::from_json_str(text);
    let ok = result.is_ok();
    drop(black_box(result));
    ok
}

fn from_content<T: Elicit>(map: &Map<String, Value>) -> bool {
    let result = T::from_content(map);
    let ok = result.is_ok();
    drop(black_box(result));
    ok
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Codec {
    /// (1) jsonschema: parse into `Value` + `is_valid`.
    JsonschemaDecode,
    /// (2) derived `from_json_str`.
    Decode,
    /// (3) derived `from_content` on a parsed map.
    FromContent,
    /// (4) jsonschema `is_valid` on a parsed value.
    Jsonschema,
    /// (5) `Validator::validate` on a parsed map.
    Validate,
    /// (6) `Validator::is_valid` on a parsed map.
    IsValid,
}

impl Codec {
    const ALL: [Codec; 6] = [
        Codec::JsonschemaDecode,
        Codec::Decode,
        Codec::FromContent,
        Codec::Jsonschema,
        Codec::Validate,
        Codec::IsValid,
    ];

    fn from_name(name: &str) -> Option<Codec> {
        Some(match name {
            "jsonschema-decode" => Codec::JsonschemaDecode,
            "decode" => Codec::Decode,
            "from-content" => Codec::FromContent,
            "jsonschema" => Codec::Jsonschema,
            "validate" => Codec::Validate,
            "is-valid" => Codec::IsValid,
            _ => return None,
        })
    }
}

impl Form {
    fn new<T: Elicit>(name: &'static str) -> Form {
        // Leaked so that the prepared validator can borrow it for the whole run.
        let schema: &'static RequestedSchema = Box::leak(Box::new(T::requested_schema()));
        schema.check().expect("the derived schema is consistent");
        let json = serde_json::to_value(schema).expect("the schema serialises");
        let validator = jsonschema::options()
            .with_draft(jsonschema::Draft::Draft202012)
            .should_validate_formats(true)
            .build(&json)
            .expect("jsonschema compiles the derived schema");
        let cases = contents(name)
            .into_iter()
            .map(|(valid, text)| {
                let value: Value = serde_json::from_str(text).expect("contents are JSON");
                let map = value.as_object().expect("contents are objects").clone();
                Case {
                    valid,
                    text,
                    value,
                    map,
                }
            })
            .collect();
        let form = Form {
            name,
            cases,
            schema,
            prepared: schema.validator(),
            validator,
            decode: decode::<T>,
            from_content: from_content::<T>,
        };
        form.check_agreement();
        form
    }

    fn by_name(name: &str) -> Form {
        match name {
            "contact" => Form::new::<Contact>("contact"),
            "signup" => Form::new::<Signup>("signup"),
            "meeting" => Form::new::<Meeting>("meeting"),
            "confirm" => Form::new::<Confirm>("confirm"),
            other => panic!("unknown form {other}"),
        }
    }

    /// Runs `codec` on one content; the verdict.
    #[inline(always)]
    fn run(&self, codec: Codec, case: &Case) -> bool {
        match codec {
            Codec::JsonschemaDecode => {
                let value: Value = serde_json::from_str(black_box(case.text)).expect("JSON");
                let ok = self.validator.is_valid(&value);
                drop(black_box(value));
                ok
            }
            Codec::Decode => (self.decode)(black_box(case.text)),
            Codec::FromContent => (self.from_content)(black_box(&case.map)),
            Codec::Jsonschema => self.validator.is_valid(black_box(&case.value)),
            Codec::Validate => {
                let result = self.prepared.validate(black_box(&case.map));
                let ok = result.is_ok();
                drop(black_box(result));
                ok
            }
            Codec::IsValid => self.prepared.is_valid(black_box(&case.map)),
        }
    }

    /// Every codec gives every content the verdict written next to it, so that the timings
    /// compare the same work (a codec that wrongly stopped early would look fast).
    fn check_agreement(&self) {
        let mut disagreements = Vec::new();
        for case in &self.cases {
            for codec in Codec::ALL {
                let got = self.run(codec, case);
                if got != case.valid {
                    let detail = match codec {
                        Codec::JsonschemaDecode | Codec::Jsonschema => self
                            .validator
                            .iter_errors(&case.value)
                            .map(|error| format!("{}: {error}", error.instance_path()))
                            .collect::<Vec<_>>()
                            .join("; "),
                        Codec::Validate | Codec::IsValid => match self.schema.validate(&case.map) {
                            Ok(()) => "valid".to_owned(),
                            Err(errors) => errors.to_string(),
                        },
                        Codec::Decode | Codec::FromContent => String::new(),
                    };
                    disagreements.push(format!(
                        "{}: {codec:?} says {} (expected {}) for {}{}{detail}",
                        self.name,
                        if got { "valid" } else { "invalid" },
                        if case.valid { "valid" } else { "invalid" },
                        case.text,
                        if detail.is_empty() { "" } else { ": " },
                    ));
                }
            }
        }
        assert!(
            disagreements.is_empty(),
            "the validators disagree:\n{}",
            disagreements.join("\n")
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Timing.

/// Rounds per content; every round times the six codecs one after the other, so that a slow
/// spell of the machine hits them alike. Medians over the rounds.
const ROUNDS: usize = 31;
/// The length of one timing sample.
const SAMPLE: Duration = Duration::from_micros(500);

fn time(form: &Form, codec: Codec, case: &Case, reps: u32) -> Duration {
    let start = Instant::now();
    for _ in 0..reps {
        black_box(form.run(codec, case));
    }
    start.elapsed() / reps
}

/// Median time of each codec on one content, in `Codec::ALL` order.
fn measure(form: &Form, case: &Case) -> [Duration; 6] {
    let probe = time(form, Codec::JsonschemaDecode, case, 200).max(Duration::from_nanos(1));
    let reps = (SAMPLE.as_nanos() / probe.as_nanos()).clamp(10, 1_000_000) as u32;
    let mut samples: [Vec<Duration>; 6] = Default::default();
    for _ in 0..ROUNDS {
        for (i, codec) in Codec::ALL.into_iter().enumerate() {
            samples[i].push(time(form, codec, case, reps));
        }
    }
    samples.map(|mut times| {
        times.sort();
        times[times.len() / 2]
    })
}

/// Summed median times of the six codecs over some contents.
#[derive(Default, Clone, Copy)]
struct Totals {
    contents: usize,
    times: [f64; 6],
}

impl Totals {
    fn add(&mut self, times: &[Duration; 6]) {
        self.contents += 1;
        for (sum, time) in self.times.iter_mut().zip(times) {
            *sum += time.as_secs_f64();
        }
    }

    fn merge(&mut self, other: &Totals) {
        self.contents += other.contents;
        for (sum, time) in self.times.iter_mut().zip(other.times) {
            *sum += time;
        }
    }

    fn print(&self, label: &str) {
        if self.contents == 0 {
            return;
        }
        let [js_decode, decode, from_content, js, validate, is_valid] = self.times;
        let per = |t: f64| t / self.contents as f64 * 1e9;
        println!(
            "{label:<26} {:>2} | {:>7.0} {:>7.0} {:>7.0} {:>7.0} {:>7.0} {:>7.0} | {:>6.2}x {:>6.2}x {:>6.2}x {:>6.2}x",
            self.contents,
            per(js_decode),
            per(decode),
            per(from_content),
            per(js),
            per(validate),
            per(is_valid),
            decode / js_decode,
            from_content / js,
            validate / js,
            is_valid / js,
        );
    }
}

fn main() {
    if let Some(only) = std::env::var_os("BENCH_ONLY") {
        let only = only.to_string_lossy().into_owned();
        let (form, codec) = only
            .split_once(':')
            .expect("BENCH_ONLY=<form>[/valid|/invalid]:<codec>");
        let (form, which) = form.split_once('/').unwrap_or((form, "all"));
        let mut form = Form::by_name(form);
        match which {
            "all" => {}
            "valid" => form.cases.retain(|case| case.valid),
            "invalid" => form.cases.retain(|case| !case.valid),
            other => panic!("unknown subset {other}: valid or invalid"),
        }
        if codec == "none" {
            return;
        }
        let codec = Codec::from_name(codec).unwrap_or_else(|| panic!("unknown codec {codec}"));
        for _ in 0..100 {
            for case in &form.cases {
                black_box(form.run(codec, case));
            }
        }
        return;
    }
    let detail = std::env::var_os("BENCH_DETAIL").is_some();
    println!(
        "jsonschema 0.60 with format assertion; times in ns per content (median of {ROUNDS} rounds)"
    );
    println!(
        "(1) jsonschema parse+is_valid  (2) derived from_json_str  (3) derived from_content  \
         (4) jsonschema is_valid  (5) Validator::validate  (6) Validator::is_valid"
    );
    println!(
        "{:<26} {:>2} | {:>7} {:>7} {:>7} {:>7} {:>7} {:>7} | {:>7} {:>7} {:>7} {:>7}",
        "form",
        "n",
        "(1)",
        "(2)",
        "(3)",
        "(4)",
        "(5)",
        "(6)",
        "(2)/(1)",
        "(3)/(4)",
        "(5)/(4)",
        "(6)/(4)"
    );
    let mut all = [Totals::default(); 2];
    for name in FORMS {
        let form = Form::by_name(name);
        let mut totals = [Totals::default(); 2];
        for case in &form.cases {
            let times = measure(&form, case);
            totals[usize::from(case.valid)].add(&times);
            if detail {
                let mut one = Totals::default();
                one.add(&times);
                let text = &case.text[..case.text.len().min(40)];
                one.print(&format!(
                    "  {} {text}",
                    if case.valid { "ok " } else { "bad" }
                ));
            }
        }
        let mut both = totals[0];
        both.merge(&totals[1]);
        both.print(name);
        totals[1].print(&format!("  {name}, valid"));
        totals[0].print(&format!("  {name}, invalid"));
        all[0].merge(&totals[0]);
        all[1].merge(&totals[1]);
    }
    let mut both = all[0];
    both.merge(&all[1]);
    both.print("all forms");
    all[1].print("  all, valid");
    all[0].print("  all, invalid");
    let [js_decode, decode, _, js, validate, _] = both.times;
    let verdict = |ok: bool| if ok { "met" } else { "NOT met" };
    println!(
        "goal (2)/(1) <= 0.33: {:.2}x, {}; goal (5)/(4) <= 0.50: {:.2}x, {}",
        decode / js_decode,
        verdict(decode / js_decode <= 1.0 / 3.0),
        validate / js,
        verdict(validate / js <= 0.5),
    );
}
