//! Following a conversation: which revision each message belongs to, who sent it, and which
//! request a response answers; each message checked with the generated types of its revision.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use mcp_typed::jsonrpc::DecodeErrorKind;
use serde_json::Value;

use crate::extension::Extensions;
use crate::facts::{self, Facts, Outline, Shape};
use crate::revision::{
    decode, decode_answer, decode_envelope, decode_error_by_code, decode_lent, decode_sent,
    defines, leniencies, missing_result_type, response_envelope, result_lent, under_result,
    Answering, Revision, Sent, Side, Violation,
};
use crate::traffic::{plain_id, split_jsonrpc_and_id, Entry};

/// What the checker made of one message.
#[derive(Debug, Clone, PartialEq)]
pub struct Verdict {
    /// The message's number in the traffic (from 1).
    pub number: usize,
    /// Its line in its file.
    pub line: usize,
    /// Who sent it (from the record, or told from the message).
    pub from: Option<Side>,
    /// Its method; a response's is that of the request it answers, when that was seen.
    pub method: Option<String>,
    /// The revision it was checked against.
    pub revision: Option<Revision>,
    /// Its `id`, when it has one.
    pub id: Option<Value>,
    /// An error response's `code`.
    pub error_code: Option<i64>,
    /// Everything wrong with it; empty when it is valid.
    pub violations: Vec<Violation>,
    /// A request or notification of a method its revision does not define (an extension's, a
    /// vendor's): checked as a JSON-RPC envelope only, as the conformance suite checks it; a
    /// violation only for a [`Checker::strict`] checker.
    pub unknown_method: bool,
}

impl Verdict {
    /// Whether the message is valid.
    pub fn is_valid(&self) -> bool {
        self.violations.is_empty()
    }
}

/// A request still waiting for its response.
#[derive(Debug, Clone)]
struct Pending {
    request: Answering,
    revision: Revision,
}

/// The state of one conversation: the negotiated revision and the open requests.
#[derive(Debug, Clone, Default)]
pub struct Checker {
    /// The revision of traffic that has no `initialize` (`--revision`).
    assumed: Option<Revision>,
    /// The sender of every message of a one-sided recording (`--from`).
    sender: Option<Side>,
    /// The revision the `initialize` exchange settled on.
    negotiated: Option<Revision>,
    /// The revision the last message that stated one stated (2026-07-28's `_meta`, a header):
    /// that of the notifications and requests that state none in a conversation without
    /// `initialize`.
    stated: Option<Revision>,
    /// The revision an `initialize` request proposed: the conversation's until its response
    /// (which a recording of the client's side alone does not have) says otherwise.
    proposed: Option<Revision>,
    /// Open requests by their sender and id.
    pending: HashMap<(Side, IdKey), Pending>,
    count: usize,
    /// Whether every message is read the slow way (to test that the fast ways agree with it).
    slow_only: bool,
    /// Whether a method the revision does not define is a violation.
    strict: bool,
    /// The methods extension schemas define, checked against those schemas.
    extensions: Option<Arc<Extensions>>,
}

impl Checker {
    /// A checker for one conversation; `assumed` is the revision of messages sent before any
    /// `initialize` (traffic recorded without one).
    pub fn new(assumed: Option<Revision>) -> Checker {
        Checker {
            assumed,
            ..Checker::default()
        }
    }

    /// A checker for what one side sent (a recording of one direction), where a record does
    /// not say otherwise.
    pub fn sent_by(mut self, side: Side) -> Checker {
        self.sender = Some(side);
        self
    }

    /// A checker for which a request or notification of a method the revision does not define
    /// is a violation (`--strict`), not only an unknown method.
    pub fn strict(mut self) -> Checker {
        self.strict = true;
        self
    }

    /// A checker that checks the methods of `extensions` against their schemas
    /// (`--extension`), rather than as unknown methods.
    pub fn with_extensions(mut self, extensions: Arc<Extensions>) -> Checker {
        self.extensions = Some(extensions);
        self
    }

    /// A checker that reads every message the slow way: the same verdicts, for the tests that
    /// prove it.
    #[doc(hidden)]
    pub fn slow_only(mut self) -> Checker {
        self.slow_only = true;
        self
    }

    /// Checks a recording conversation by conversation: each entry's verdict, in the
    /// recording's order, each conversation (a record's `conversation`; entries without one
    /// are one conversation) followed by a checker of its own that starts as `self`.
    pub fn check_recording(&self, entries: &[Entry]) -> Vec<Verdict> {
        let mut conversations: HashMap<Option<&str>, Checker> = HashMap::new();
        (entries.iter())
            .map(|entry| {
                let conversation = entry.conversation.as_deref();
                (conversations.entry(conversation))
                    .or_insert_with(|| self.clone())
                    .check(entry)
            })
            .collect()
    }

    /// The revision of messages sent before any `initialize`: the one the checker was given,
    /// else the one a record of the conversation stated.
    pub fn assumed(&self) -> Option<Revision> {
        self.assumed
    }

    /// Checks the next message of the conversation.
    pub fn check(&mut self, entry: &Entry) -> Verdict {
        self.count += 1;
        if let Some(revision) = entry.revision {
            self.assumed.get_or_insert(revision);
        }
        let from = entry.from.or(self.sender);
        let mut verdict = Verdict {
            number: self.count,
            line: entry.line,
            from,
            method: None,
            revision: None,
            id: None,
            error_code: None,
            violations: Vec::new(),
            unknown_method: false,
        };
        // The fast ways first (the answer's, which looks at the text's start only, before the
        // one that searches it), then the slow one.
        let fast = (!self.slow_only)
            .then(|| self.check_answer(entry, &verdict))
            .flatten()
            .or_else(|| (!self.slow_only).then(|| self.check_sent(entry, &verdict))?);
        if let Some(verdict) = fast {
            return verdict;
        }
        let read = (entry.message.as_deref().map_err(String::clone))
            .and_then(|text| Ok((text, Facts::read(text)?)));
        let (text, facts) = match read {
            Ok(read) => read,
            Err(why) => {
                verdict.violations.push(violation("", "json", &why));
                return verdict;
            }
        };
        verdict.id = facts.id.clone();
        verdict.error_code = facts.error_code;
        let id = facts.id.as_ref().map(IdKey::of);
        let answered = self.answered(from, &facts.shape, id.as_ref());
        verdict.method = match (&facts.shape, &answered) {
            (Shape::Request(m) | Shape::Notification(m), _) => Some(m.clone()),
            (_, Some((_, pending))) => Some(pending.request.method.to_string()),
            _ => None,
        };
        let Some(revision) = self.revision_of(entry, &facts, answered.as_ref()) else {
            // An error response has the same shape in every revision: one answering a request
            // for a revision nobody knows (`server/discover` with an unsupported version) is
            // checked as 2025-11-25's, where both sides answer.
            if facts.shape == Shape::Error {
                let side = from.unwrap_or(Side::Server);
                verdict.from = Some(side);
                if let Err(error) = decode(Revision::V2025_11_25, side, text) {
                    (verdict.violations).push(Violation::from_decode_error(&error));
                }
                return verdict;
            }
            let expected = match (facts.stated_version(), &facts.shape) {
                (Some(stated), _) => format!(
                    "a known protocol revision: its `_meta` names `{stated}`, which is none of {}",
                    Revision::ALL.map(|r| r.version()).join(", ")
                ),
                (None, Shape::Request(m) | Shape::Notification(m)) if m != "initialize" => {
                    "a protocol revision: its `_meta` names none (a 2026-07-28 request or \
                     notification carries `io.modelcontextprotocol/protocolVersion` there), and \
                     no `initialize` came before it; give --revision for traffic recorded \
                     without one"
                        .to_owned()
                }
                _ => "a protocol revision: no `initialize` came before this message; give \
                      --revision for traffic recorded without one"
                    .to_owned(),
            };
            verdict
                .violations
                .push(violation("", "revision", &expected));
            return verdict;
        };
        verdict.revision = Some(revision);
        if let Shape::Request(method) | Shape::Notification(method) = &facts.shape {
            if !defines(revision, method) {
                self.check_unknown(revision, &facts.shape, text, &mut verdict);
                // Its answer is matched (and checked as a result no method names).
                let side = from.unwrap_or(Side::Client);
                self.follow(side, id, revision, &facts, answered);
                return verdict;
            }
        }
        let known = from.or(answered.as_ref().map(|(side, _)| *side));
        // The result of an extension's request: its envelope as the revision's, the rest as the
        // extension's schema says (the revision's rules for results, 2026-07-28's `resultType`,
        // are not the extension's).
        if let (Some(side), Shape::Response, Some((_, pending))) = (known, &facts.shape, &answered)
        {
            if let Some(checked) =
                self.extension_result(revision, side, &pending.request, &facts, text)
            {
                verdict.from = Some(side);
                match checked {
                    Ok(broken) => verdict.violations.extend(broken),
                    Err(error) => (verdict.violations).push(Violation::from_decode_error(&error)),
                }
                self.follow(side, id, revision, &facts, answered);
                return verdict;
            }
        }
        let (side, checked) = match (known, &facts.shape, &answered) {
            // A result: as the result type of the request it answers.
            (Some(side), Shape::Response, Some((_, pending))) => {
                let answer = decode_answer(revision, side, &pending.request, &facts, text);
                (side, answer.unwrap_or_else(|| decode(revision, side, text)))
            }
            (Some(side), _, _) => (side, decode(revision, side, text)),
            (None, Shape::Request(_) | Shape::Notification(_), _) => guess_side(revision, text),
            // An answer to a request not in the traffic: most answers are the server's.
            (None, Shape::Response | Shape::Error, _) => {
                (Side::Server, decode(revision, Side::Server, text))
            }
        };
        verdict.from = Some(side);
        match checked {
            Ok(broken) => {
                verdict.violations.extend(broken);
                verdict.violations.extend(leniencies(revision, &facts));
                // An error of a code with a definition of its own: checked as that one too.
                let by_code = (facts.shape == Shape::Error)
                    .then(|| decode_error_by_code(revision, &facts, text))
                    .flatten();
                match by_code {
                    Some(Ok(broken)) => verdict.violations.extend(broken),
                    Some(Err(error)) => {
                        (verdict.violations).push(Violation::from_decode_error(&error))
                    }
                    None => {}
                }
            }
            Err(error) => verdict
                .violations
                .push(Violation::from_decode_error(&error)),
        }
        if facts.shape == Shape::Response && answered.is_none() {
            verdict.violations.extend(self.unasked(facts.id.as_ref()));
        }
        self.follow(side, id, revision, &facts, answered);
        verdict
    }

    /// A result answering no request: reported in a conversation seen from its start in both
    /// directions (its `initialize` answered, no `--from`), where every request is in the
    /// traffic; elsewhere (a recording of one side, traffic joined midway, a sessionless HTTP
    /// exchange, whose server requests are answered in another) its request may simply not be.
    /// Errors are left out: a server answers a request too broken to be read with one.
    fn unasked(&self, id: Option<&Value>) -> Option<Violation> {
        let id = id.filter(|id| !id.is_null())?;
        (self.negotiated.is_some() && self.sender.is_none()).then(|| {
            let expected = format!(
                "the answer to a request of the other side: no request with id {id} is open \
                 (none was sent, or it was answered already)"
            );
            violation("/id", "id", &expected)
        })
    }

    /// The result of a request of an extension's method: its envelope as the revision's, its
    /// `result` against the extension's schema; `None` when no extension defines the result, or
    /// when the revision defines the method (whose own result type checks it, as the request
    /// was checked).
    fn extension_result(
        &self,
        revision: Revision,
        responder: Side,
        request: &Answering,
        facts: &Facts,
        text: &str,
    ) -> Option<Checked> {
        let extensions = self.extensions.as_deref()?;
        if defines(revision, &request.method) {
            return None;
        }
        let broken = extensions.check_result(&request.method, facts.result.as_deref()?)?;
        match response_envelope(revision, responder, facts, text)? {
            Ok(()) => Some(Ok(broken)),
            Err(error) => Some(Err(error)),
        }
    }

    /// A request or notification of a method `revision` does not define: its envelope checked,
    /// and the rest against the extension schema that defines the method; of no extension's, an
    /// unknown method, and, when strict, a violation.
    fn check_unknown(&self, revision: Revision, shape: &Shape, text: &str, verdict: &mut Verdict) {
        let (Shape::Request(method) | Shape::Notification(method)) = shape else {
            return;
        };
        let request = matches!(shape, Shape::Request(_));
        verdict
            .violations
            .extend(decode_envelope(revision, request, text));
        let extensions = self.extensions.as_deref();
        if let Some(broken) = extensions.and_then(|e| e.check_message(method, text)) {
            verdict.violations.extend(broken);
            return;
        }
        verdict.unknown_method = true;
        if self.strict {
            let expected = format!("a method {revision} defines (--strict)");
            verdict
                .violations
                .push(violation("/method", "method", &expected));
        }
    }

    /// The fast way to check most requests and notifications: decoded at once as the sender's
    /// in the revision the conversation and the message settle, their method and id read from
    /// what was decoded. A text holding nothing that could name a revision or ask for a task
    /// (`protocolVersion`, `task`, an escape by which a name could be written otherwise) is
    /// not read before; in a conversation in 2026-07-28, one that names a version is decoded as
    /// 2026-07-28's and taken when its `_meta` names that revision (read from what was
    /// decoded); any other is read once for those ([`Outline`]). Taken when no header was
    /// recorded (a sender not recorded is told as the slow way tells it); a response, or a
    /// message that does not decode (`None`), is read the slow way, which also says what is
    /// wrong.
    fn check_sent(&mut self, entry: &Entry, verdict: &Verdict) -> Option<Verdict> {
        let text = entry.message.as_deref().ok()?;
        if entry.header_version.is_some() {
            return None;
        }
        let may_ask_for_task = ["\"task\"", "\\u"].iter().any(|n| text.contains(n));
        let names_version = text.contains("protocolVersion");
        let in_2026 = Revision::V2026_07_28;
        if names_version && !may_ask_for_task && self.settled() == Some(in_2026) {
            let decoded = decode_sent_by(in_2026, verdict.from, text)
                .filter(|(_, sent)| sent.stated == Some(in_2026));
            if let Some((side, sent)) = decoded {
                return Some(self.take_sent(side, in_2026, Some(in_2026), false, sent, verdict));
            }
        }
        let outline = if names_version || may_ask_for_task {
            Outline::read(text)?
        } else {
            if !text.contains("\"method\"") {
                return None;
            }
            Outline::default()
        };
        let stated = outline
            .stated_version
            .as_deref()
            .and_then(Revision::from_version);
        let named = stated.or_else(|| {
            (outline.method.as_deref() == Some("initialize"))
                .then_some(outline.proposed_version.as_deref())
                .flatten()
                .and_then(Revision::from_version)
        });
        let revision = named.or(self.settled())?;
        let (side, sent) = decode_sent_by(revision, verdict.from, text)?;
        Some(self.take_sent(side, revision, stated, outline.task, sent, verdict))
    }

    /// Follows a request or notification the fast way decoded: the revision it stated, the
    /// proposal of an `initialize`, a request left open.
    fn take_sent(
        &mut self,
        side: Side,
        revision: Revision,
        stated: Option<Revision>,
        task: bool,
        sent: Sent,
        verdict: &Verdict,
    ) -> Verdict {
        if stated.is_some() {
            self.stated = stated;
        }
        if sent.method == "initialize" {
            self.proposed = Some(revision);
        }
        if let Some(id) = &sent.id {
            let request = Answering {
                method: Cow::Borrowed(sent.method),
                task,
            };
            (self.pending).insert((side, IdKey::of(id)), Pending { request, revision });
        }
        Verdict {
            from: Some(side),
            method: Some(sent.method.to_owned()),
            revision: Some(revision),
            id: sent.id,
            violations: sent.violations,
            ..verdict.clone()
        }
    }

    /// The fast way to check most results: a response written as most peers write one
    /// (`{"jsonrpc":"2.0","id":ID,"result":…}`, compact, in this order), its `result` decoded
    /// at once as the result of the request it answers (or, answering none seen, the message
    /// as the sender's), with no other reading of the text but, in 2026-07-28, for the
    /// result's `resultType` (which decides its type, and whose absence is reported). Not for
    /// `initialize` (its answer settles the revision), a task-augmented request, or a
    /// 2026-07-28 result of another `resultType` than `complete` or `input_required`
    /// ([`result_type_read_fast`]); anything
    /// else, or a result that does not decode (`None`: which also proves the result was the
    /// last member and nothing else followed), is read the slow way.
    fn check_answer(&mut self, entry: &Entry, verdict: &Verdict) -> Option<Verdict> {
        let text = entry.message.as_deref().ok()?;
        if entry.header_version.is_some() {
            return None;
        }
        let (id, result) = compact_response(text)?;
        let id_key = IdKey::of(&id);
        let asked = requesters(verdict.from)
            .find_map(|requester| self.pending.remove_entry(&(requester, id_key.clone())));
        let checked = match &asked {
            Some(((requester, _), pending)) => answer(*requester, pending, result),
            // Answering no request seen: the message as its sender's (most answers are the
            // server's), and a 2026-07-28 result's `resultType` read for its absence.
            None => self.settled().and_then(|revision| {
                let side = verdict.from.unwrap_or(Side::Server);
                let missing_type = result_type_read_fast(revision, result)?;
                let mut violations = decode_lent(revision, side, text)?;
                violations.extend(missing_type);
                violations.extend(self.unasked(Some(&id)));
                Some((side, None, revision, violations))
            }),
        };
        let Some((side, method, revision, violations)) = checked else {
            // The slow way reads it, and finds its request again.
            if let Some((key, pending)) = asked {
                self.pending.insert(key, pending);
            }
            return None;
        };
        Some(Verdict {
            from: Some(side),
            method,
            revision: Some(revision),
            id: Some(id),
            violations,
            ..verdict.clone()
        })
    }

    /// The request a response answers (removed from the open ones) and the side that sent
    /// the response: the other side of the request's.
    fn answered(
        &mut self,
        from: Option<Side>,
        shape: &Shape,
        id: Option<&IdKey>,
    ) -> Option<(Side, Pending)> {
        if !matches!(shape, Shape::Response | Shape::Error) {
            return None;
        }
        let id = id?;
        requesters(from).find_map(|requester| {
            let pending = self.pending.remove(&(requester, id.clone()))?;
            Some((requester.other(), pending))
        })
    }

    /// The revision a message belongs to: the one its request named (a response), the one it
    /// names itself (a 2026-07-28 request's `_meta`, a recorded header, an `initialize`'s
    /// proposal), else the negotiated one, else the last one stated, else the one proposed,
    /// else the assumed one.
    fn revision_of(
        &mut self,
        entry: &Entry,
        facts: &Facts,
        answered: Option<&(Side, Pending)>,
    ) -> Option<Revision> {
        if let Some((_, pending)) = answered {
            return Some(pending.revision);
        }
        let stated = (facts.stated_version())
            .or(entry.header_version.as_deref())
            .and_then(Revision::from_version);
        if stated.is_some() {
            self.stated = stated;
        }
        let named = stated.or_else(|| {
            match &facts.shape {
                Shape::Request(m) if m == "initialize" => facts.proposed_version(),
                _ => None,
            }
            .and_then(Revision::from_version)
        });
        named.or(self.settled())
    }

    /// The revision of a message that names none: the negotiated one, else the last one
    /// stated, else the one proposed, else the assumed one.
    fn settled(&self) -> Option<Revision> {
        (self.negotiated.or(self.stated))
            .or(self.proposed)
            .or(self.assumed)
    }

    /// Keeps the open requests and the negotiated revision up to date.
    fn follow(
        &mut self,
        side: Side,
        id: Option<IdKey>,
        revision: Revision,
        facts: &Facts,
        answered: Option<(Side, Pending)>,
    ) {
        match &facts.shape {
            Shape::Request(method) => {
                if method == "initialize" {
                    self.proposed = Some(revision);
                }
                if let Some(id) = id {
                    let pending = Pending {
                        request: Answering {
                            method: Cow::Owned(method.clone()),
                            task: facts.asks_for_task(),
                        },
                        revision,
                    };
                    self.pending.insert((side, id), pending);
                }
            }
            Shape::Response => {
                let answers_initialize =
                    answered.is_some_and(|(_, pending)| pending.request.method == "initialize");
                if answers_initialize {
                    let agreed = facts.agreed_version();
                    self.negotiated = agreed.and_then(Revision::from_version).or(Some(revision));
                }
            }
            Shape::Notification(_) | Shape::Error => {}
        }
    }
}

/// A request or notification decoded as `from`'s in `revision`; with no sender recorded,
/// told as the slow way tells it ([`guess_side`]): the client's when it decodes as the
/// client's, else the server's when it decodes as the server's. `None` for what the slow way
/// reads.
fn decode_sent_by(revision: Revision, from: Option<Side>, text: &str) -> Option<(Side, Sent)> {
    match from {
        Some(side) => Some((side, decode_sent(revision, side, text)?.ok()?)),
        None => match decode_sent(revision, Side::Client, text) {
            Some(sent) => Some((Side::Client, sent.ok()?)),
            None => Some((
                Side::Server,
                decode_sent(revision, Side::Server, text)?.ok()?,
            )),
        },
    }
}

/// Who may have asked what the side `from` answers: the other side; with no sender recorded,
/// either, the client's requests looked for first.
fn requesters(from: Option<Side>) -> impl Iterator<Item = Side> {
    let sides = match from {
        Some(side) => [Some(side.other()), None],
        None => [Some(Side::Client), Some(Side::Server)],
    };
    sides.into_iter().flatten()
}

/// The fast way's check of `result`, the text of the result of `pending`, a request of
/// `requester`: the side that answered, the request's method, the revision and what the result
/// breaks; `None` for what the slow way reads (see [`Checker::check_answer`]).
fn answer(
    requester: Side,
    pending: &Pending,
    result: &str,
) -> Option<(Side, Option<String>, Revision, Vec<Violation>)> {
    let request = &pending.request;
    if request.task || request.method == "initialize" {
        return None;
    }
    let revision = pending.revision;
    let missing_type = result_type_read_fast(revision, result)?;
    let mut violations = under_result(result_lent(revision, requester, &request.method, result)?);
    violations.extend(missing_type);
    Some((
        requester.other(),
        Some(request.method.to_string()),
        revision,
        violations,
    ))
}

/// A 2026-07-28 result's `resultType`, read top-level in `result`'s text as the fast way reads
/// it: `Some(Some(_))` when absent (reported as [`leniencies`] reports it), `Some(None)` when
/// `complete` or `input_required` or in another revision, `None` for any other type (a task's
/// result, not a string), which the slow way reads.
fn result_type_read_fast(revision: Revision, result: &str) -> Option<Option<Violation>> {
    if revision != Revision::V2026_07_28 {
        return Some(None);
    }
    match facts::result_type(result) {
        None => Some(Some(missing_result_type())),
        Some(Some(kind)) if kind == "complete" || kind == "input_required" => Some(None),
        Some(_) => None,
    }
}

/// A request's id as the open requests are keyed: a string or an integer as itself (no text
/// to write), any other id by its JSON text; two ids have the same key when they have the
/// same JSON text.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum IdKey {
    String(String),
    Integer(i64),
    Text(String),
}

impl IdKey {
    fn of(id: &Value) -> IdKey {
        match id {
            Value::String(text) => IdKey::String(text.clone()),
            _ => match id.as_i64() {
                Some(n) => IdKey::Integer(n),
                None => IdKey::Text(id.to_string()),
            },
        }
    }
}

/// The id and the text of the `result` of a response written as peers write one: compact,
/// `{"jsonrpc":"2.0","id":ID,"result":RESULT}` (rmcp, the Python SDK) or
/// `{"result":RESULT,"jsonrpc":"2.0","id":ID}` (the TypeScript SDK), the id an integer or a
/// string without escapes; `None` for any other text. That `RESULT` is one JSON value (so that
/// the message has these three members and no other) is for its decoding to prove.
fn compact_response(text: &str) -> Option<(Value, &str)> {
    const FIRST: &str = "{\"jsonrpc\":\"2.0\",\"id\":";
    let (id, result) = if let Some(rest) = text.strip_prefix(FIRST) {
        let (id, rest) = rest.split_at(rest.find(',')?);
        if !plain_id(id) {
            return None;
        }
        (id, rest.strip_prefix(",\"result\":")?.strip_suffix('}')?)
    } else {
        let (result, id) = split_jsonrpc_and_id(text.strip_prefix("{\"result\":")?)?;
        (id, result)
    };
    Some((serde_json::from_str(id).ok()?, result))
}

/// Who sent a request or notification recorded without its sender: the side whose messages
/// include its method (a method both sides have, `ping`, is taken as the client's); with what
/// checking it as that side's found, so that it is not decoded again.
fn guess_side(revision: Revision, text: &str) -> (Side, Checked) {
    let client = decode(revision, Side::Client, text);
    if client.is_ok() {
        return (Side::Client, client);
    }
    let server = decode(revision, Side::Server, text);
    let unknown = |r: &Checked| {
        r.as_ref()
            .is_err_and(|e| e.kind() == DecodeErrorKind::MethodNotFound)
    };
    if server.is_ok() || (unknown(&client) && !unknown(&server)) {
        (Side::Server, server)
    } else {
        (Side::Client, client)
    }
}

/// What [`decode`] makes of a message.
type Checked = Result<Vec<Violation>, mcp_typed::jsonrpc::DecodeError>;

fn violation(pointer: &str, keyword: &str, expected: &str) -> Violation {
    Violation {
        pointer: pointer.to_owned(),
        keyword: keyword.to_owned(),
        expected: expected.to_owned(),
    }
}
