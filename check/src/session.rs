//! Following a conversation: which revision each message belongs to, who sent it, and which
//! request a response answers; each message checked with the generated types of its revision.

use std::borrow::Cow;
use std::collections::HashMap;
use std::sync::Arc;

use mcp_typed::__private::check::ResultType;
use mcp_typed::jsonrpc::DecodeErrorKind;
use serde_json::Value;

use crate::extension::Extensions;
use crate::facts::{self, Facts, Name, Outline, Shape};
use crate::revision::{
    decode, decode_answer, decode_envelope, decode_error_by_code, decode_lent, decode_sent,
    defines, leniencies, missing_result_type, response_envelope, result_as, result_lent,
    result_passes, under_result, Answering, ResultAs, Revision, Sent, Side, Violation,
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
    /// Whether every message is read by its framing (to test that the quicker readings agree).
    framed_only: bool,
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

    /// A checker that reads every message by its framing, the reading the quicker ones fall
    /// back to: the same verdicts, for the tests that prove it.
    #[doc(hidden)]
    pub fn framed_only(mut self) -> Checker {
        self.framed_only = true;
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
    ///
    /// One way for every message: read as little as it needs (most answers by their first
    /// bytes, most requests and notifications by decoding them, anything else by its framing:
    /// [`Facts`]), routed by one rule each (its revision, its sender, a result's type:
    /// [`result_as`]), decoded by the borrowed family (the owned types only to say why it is
    /// refused), and followed in one place. A message the first two readings cannot settle (a
    /// refusal, whose text may hold more than they read; one recorded with a header) is read by
    /// its framing.
    pub fn check(&mut self, entry: &Entry) -> Verdict {
        self.count += 1;
        if let Some(revision) = entry.revision {
            self.assumed.get_or_insert(revision);
        }
        let from = entry.from.or(self.sender);
        let outcome = match entry.message.as_deref() {
            Err(why) => Outcome::of(from).with(violation("", "json", why)),
            Ok(text) => {
                let quick = (!self.framed_only && entry.header_version.is_none())
                    .then(|| {
                        (self.answer_at_once(text, from)).or_else(|| self.sent_at_once(text, from))
                    })
                    .flatten();
                quick.unwrap_or_else(|| self.framed(entry, text, from))
            }
        };
        self.follow(outcome.step);
        Verdict {
            number: self.count,
            line: entry.line,
            from: outcome.side,
            method: outcome.method,
            revision: outcome.revision,
            id: outcome.id,
            error_code: outcome.error_code,
            violations: outcome.violations,
            unknown_method: outcome.unknown_method,
        }
    }

    /// The revision of a message: that of the request it answers, else the one it states (a
    /// 2026-07-28 request's `_meta`, a recorded header), else an `initialize`'s proposal, else
    /// the one the conversation settled ([`Checker::settled`]).
    fn revision(
        &self,
        answered: Option<&Pending>,
        stated: Option<Revision>,
        proposal: Option<Revision>,
    ) -> Option<Revision> {
        (answered.map(|pending| pending.revision))
            .or(stated)
            .or(proposal)
            .or_else(|| self.settled())
    }

    /// The revision of a message that names none: the negotiated one, else the last one
    /// stated, else the one proposed, else the assumed one.
    fn settled(&self) -> Option<Revision> {
        (self.negotiated.or(self.stated))
            .or(self.proposed)
            .or(self.assumed)
    }

    /// Keeps the open requests and the conversation's revision up to date with what a message
    /// told: the one place the conversation changes.
    fn follow(&mut self, step: Step) {
        if let Some(stated) = step.stated {
            self.stated = Some(stated);
        }
        if let Some(proposed) = step.proposed {
            self.proposed = Some(proposed);
        }
        if let Some(negotiated) = step.negotiated {
            self.negotiated = Some(negotiated);
        }
        if let Some((key, pending)) = step.asked {
            self.pending.insert(key, pending);
        }
    }

    /// The request a response of `id` answers, removed from the open ones, with its sender:
    /// looked for among the requests of the side that did not send the response.
    fn take_request(&mut self, from: Option<Side>, id: &IdKey) -> Option<((Side, IdKey), Pending)> {
        requesters(from).find_map(|requester| self.pending.remove_entry(&(requester, id.clone())))
    }

    /// Reads a response written as most peers write one (`{"jsonrpc":"2.0","id":ID,
    /// "result":…}`, compact, in this order) by its first bytes: its `result` decoded at once
    /// as the result of the request it answers (or, answering none seen, the message as the
    /// sender's), with no other reading of the text but, in 2026-07-28, for the result's
    /// `resultType` (which decides its type, and whose absence is reported). `None` (the request
    /// left open) for the answer to `initialize` (its answer settles the revision, from a
    /// member of its result), a result [`result_as`] checks as another type than its method's,
    /// and a result that does not decode (which also proves that the result was the last member
    /// and nothing else followed): read by the framing.
    fn answer_at_once(&mut self, text: &str, from: Option<Side>) -> Option<Outcome> {
        let (id, result) = compact_response(text)?;
        let asked = self.take_request(from, &IdKey::of(&id));
        let outcome = self.answered_at_once(text, from, id, result, asked.as_ref());
        if let (None, Some((key, pending))) = (&outcome, asked) {
            self.pending.insert(key, pending);
        }
        outcome
    }

    /// [`Checker::answer_at_once`]'s check of the response `text` of `id` whose `result` is
    /// `result`, answering `asked` (taken from the open requests), or no request seen.
    fn answered_at_once(
        &self,
        text: &str,
        from: Option<Side>,
        id: Value,
        result: &str,
        asked: Option<&((Side, IdKey), Pending)>,
    ) -> Option<Outcome> {
        let pending = asked.map(|(_, pending)| pending);
        // The answer to `initialize` settles the revision: read by the framing.
        if pending.is_some_and(|pending| pending.request.method == "initialize") {
            return None;
        }
        let revision = self.revision(pending, None, None)?;
        // The verdict path's judgement of a result as its request's method's, which notes the
        // result's `resultType` as it reads it.
        let passed = asked.and_then(|((requester, _), pending)| {
            result_passes(revision, *requester, &pending.request.method, result)
        });
        // Read only where it decides the result's type.
        let result_type = match &passed {
            _ if !revision.has_result_type() => Some(None),
            Some(ResultType::Absent) => None,
            Some(ResultType::NotAString) => Some(None),
            Some(ResultType::String(text)) => Some(Some(text.clone())),
            None => facts::result_type(result),
        };
        let result_type = result_type.as_ref().map(|t| t.as_deref());
        let task_asked = pending.is_some_and(|pending| pending.request.task);
        let has_task = || facts::result_has_task(result);
        if result_as(revision, task_asked, result_type, has_task) != ResultAs::Method {
            return None;
        }
        let missing_type = missing_result_type(revision, result_type);
        let (side, method, violations) = match asked {
            Some(((requester, _), pending)) => {
                let method = &pending.request.method;
                let broken = match passed {
                    Some(_) => Vec::new(),
                    None => result_lent(revision, *requester, method, result)?,
                };
                let violations = under_result(broken).into_iter().chain(missing_type);
                (
                    requester.other(),
                    Some(method.to_string()),
                    violations.collect(),
                )
            }
            // Answering no request seen: the message as its sender's.
            None => {
                let side = answerer(from);
                let violations = (decode_lent(revision, side, text)?.into_iter())
                    .chain(missing_type)
                    .chain(self.unasked(Some(&id)));
                (side, None, violations.collect())
            }
        };
        Some(Outcome {
            method,
            revision: Some(revision),
            id: Some(id),
            violations,
            ..Outcome::of(Some(side))
        })
    }

    /// Reads a request or notification by decoding it at once as the sender's, in the
    /// revision the conversation and the message settle; its method and id read from what was
    /// decoded. A text holding nothing that could name a revision or ask for a task
    /// (`protocolVersion`, `task`, an escape by which a name could be written otherwise) is not
    /// read before; in a conversation in 2026-07-28 (settled, or the last revision a message
    /// stated), one that names a version is decoded as 2026-07-28's and taken when its `_meta`
    /// names that revision (read from what was decoded; a request of that revision asks for no
    /// task); any other is read once for those ([`Outline`]). `None` for a response, or a
    /// message that does not decode: read by the framing, which also says what is wrong.
    fn sent_at_once(&mut self, text: &str, from: Option<Side>) -> Option<Outcome> {
        let names_version = facts::holds(text, Name::ProtocolVersion);
        let in_2026 = Revision::V2026_07_28;
        if names_version && [self.settled(), self.stated].contains(&Some(in_2026)) {
            let decoded = (decode_sent_by(in_2026, from, text))
                .filter(|(_, sent)| sent.stated == Some(in_2026));
            if let Some((side, sent)) = decoded {
                return Some(Outcome::sent(side, in_2026, Some(in_2026), false, sent));
            }
        }
        let may_ask_for_task =
            facts::holds(text, Name::Task) || facts::holds(text, Name::UnicodeEscape);
        let outline = if names_version || may_ask_for_task {
            Outline::read(text)?
        } else {
            if !facts::holds(text, Name::Method) {
                return None;
            }
            Outline::default()
        };
        let (stated, proposal) = named(
            outline.method.as_deref(),
            outline.stated_version.as_deref(),
            outline.proposed_version.as_deref(),
        );
        let revision = self.revision(None, stated, proposal)?;
        let (side, sent) = decode_sent_by(revision, from, text)?;
        Some(Outcome::sent(side, revision, stated, outline.task, sent))
    }

    /// Reads a message by its framing ([`Facts`]): any message, the way the others fall back to.
    fn framed(&mut self, entry: &Entry, text: &str, from: Option<Side>) -> Outcome {
        let mut outcome = Outcome::of(from);
        let facts = match Facts::read(text) {
            Ok(facts) => facts,
            Err(why) => return outcome.with(violation("", "json", &why)),
        };
        outcome.id = facts.id.clone();
        outcome.error_code = facts.error_code;
        let id = facts.id.as_ref().map(IdKey::of);
        let answered = match (&facts.shape, &id) {
            (Shape::Response | Shape::Error, Some(id)) => (self.take_request(from, id))
                .map(|((requester, _), pending)| (requester.other(), pending)),
            _ => None,
        };
        outcome.method = match (&facts.shape, &answered) {
            (Shape::Request(m) | Shape::Notification(m), _) => Some(m.clone()),
            (_, Some((_, pending))) => Some(pending.request.method.to_string()),
            _ => None,
        };
        let request = match &facts.shape {
            Shape::Request(method) => Some(method.as_str()),
            _ => None,
        };
        let (stated, proposal) = named(
            request,
            facts.stated_version().or(entry.header_version.as_deref()),
            facts.proposed_version(),
        );
        // What a message stated is followed, but for an answer's (its request's revision is its).
        let followed = stated.filter(|_| answered.is_none());
        let pending = answered.as_ref().map(|(_, pending)| pending);
        let Some(revision) = self.revision(pending, stated, proposal) else {
            self.no_revision(&facts, text, &mut outcome);
            return outcome;
        };
        outcome.revision = Some(revision);
        if let Shape::Request(method) | Shape::Notification(method) = &facts.shape {
            if !defines(revision, method) {
                self.check_unknown(revision, &facts.shape, text, &mut outcome);
                // Its answer is matched (and checked as a result no method names).
                let side = from.unwrap_or(Side::Client);
                outcome.step = Step::of_sent(side, revision, &facts, id, followed);
                return outcome;
            }
        }
        let known = from.or(answered.as_ref().map(|(side, _)| *side));
        let mut by_extension = false;
        let (side, checked) = match (known, &facts.shape, &answered) {
            // A result: as the result type of the request it answers (an extension's, as its
            // schema says).
            (Some(side), Shape::Response, Some((_, pending))) => {
                let request = &pending.request;
                let extension = self.extension_result(revision, side, request, &facts, text);
                by_extension = extension.is_some();
                let answer =
                    extension.or_else(|| decode_answer(revision, side, request, &facts, text));
                (side, answer.unwrap_or_else(|| decode(revision, side, text)))
            }
            (Some(side), _, _) => (side, decode(revision, side, text)),
            (None, Shape::Request(_) | Shape::Notification(_), _) => by_sender(
                None,
                |side| decode(revision, side, text),
                Result::is_ok,
                |checked| {
                    (checked.as_ref()).is_err_and(|e| e.kind() == DecodeErrorKind::MethodNotFound)
                },
            ),
            (None, Shape::Response | Shape::Error, _) => {
                let side = answerer(None);
                (side, decode(revision, side, text))
            }
        };
        outcome.side = Some(side);
        match checked {
            Ok(broken) if by_extension => outcome.violations.extend(broken),
            Ok(broken) => {
                outcome.violations.extend(broken);
                outcome.violations.extend(leniencies(revision, &facts));
                // An error of a code with a definition of its own: checked as that one too.
                let by_code = (facts.shape == Shape::Error)
                    .then(|| decode_error_by_code(revision, &facts, text))
                    .flatten();
                match by_code {
                    Some(Ok(broken)) => outcome.violations.extend(broken),
                    Some(Err(error)) => {
                        (outcome.violations).push(Violation::from_decode_error(&error))
                    }
                    None => {}
                }
            }
            Err(error) => (outcome.violations).push(Violation::from_decode_error(&error)),
        }
        if facts.shape == Shape::Response && answered.is_none() {
            outcome.violations.extend(self.unasked(facts.id.as_ref()));
        }
        outcome.step = match (&facts.shape, answered) {
            (Shape::Response, Some((_, pending))) if pending.request.method == "initialize" => {
                let agreed = facts.agreed_version().and_then(Revision::from_version);
                Step {
                    negotiated: agreed.or(Some(revision)),
                    ..Step::default()
                }
            }
            _ => Step::of_sent(side, revision, &facts, id, followed),
        };
        outcome
    }

    /// What a message whose revision nothing settles breaks. An error response has the same
    /// shape in every revision: one answering a request for a revision nobody knows
    /// (`server/discover` with an unsupported version) is checked as 2025-11-25's, where both
    /// sides answer.
    fn no_revision(&self, facts: &Facts, text: &str, outcome: &mut Outcome) {
        if facts.shape == Shape::Error {
            let side = answerer(outcome.side);
            outcome.side = Some(side);
            if let Err(error) = decode(Revision::V2025_11_25, side, text) {
                (outcome.violations).push(Violation::from_decode_error(&error));
            }
            return;
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
        (outcome.violations).push(violation("", "revision", &expected));
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
    /// `result` against the extension's schema (the revision's rules for results, 2026-07-28's
    /// `resultType`, are not the extension's); `None` when no extension defines the result, or
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
    fn check_unknown(&self, revision: Revision, shape: &Shape, text: &str, outcome: &mut Outcome) {
        let (Shape::Request(method) | Shape::Notification(method)) = shape else {
            return;
        };
        let request = matches!(shape, Shape::Request(_));
        (outcome.violations).extend(decode_envelope(revision, request, text));
        let extensions = self.extensions.as_deref();
        if let Some(broken) = extensions.and_then(|e| e.check_message(method, text)) {
            outcome.violations.extend(broken);
            return;
        }
        outcome.unknown_method = true;
        if self.strict {
            let expected = format!("a method {revision} defines (--strict)");
            (outcome.violations).push(violation("/method", "method", &expected));
        }
    }
}

/// What checking one message found, and what it tells the conversation.
#[derive(Debug)]
struct Outcome {
    side: Option<Side>,
    method: Option<String>,
    revision: Option<Revision>,
    id: Option<Value>,
    error_code: Option<i64>,
    violations: Vec<Violation>,
    unknown_method: bool,
    step: Step,
}

impl Outcome {
    /// Nothing found yet of a message sent by `from`.
    fn of(from: Option<Side>) -> Outcome {
        Outcome {
            side: from,
            method: None,
            revision: None,
            id: None,
            error_code: None,
            violations: Vec::new(),
            unknown_method: false,
            step: Step::default(),
        }
    }

    fn with(mut self, violation: Violation) -> Outcome {
        self.violations.push(violation);
        self
    }

    /// A request or notification decoded at once.
    fn sent(
        side: Side,
        revision: Revision,
        stated: Option<Revision>,
        task: bool,
        sent: Sent,
    ) -> Outcome {
        let request = Answering {
            method: Cow::Borrowed(sent.method),
            task,
        };
        let id = sent.id.as_ref().map(IdKey::of);
        Outcome {
            method: Some(sent.method.to_owned()),
            revision: Some(revision),
            step: Step::new(side, revision, stated, request, id),
            id: sent.id,
            violations: sent.violations,
            ..Outcome::of(Some(side))
        }
    }
}

/// What a message tells the conversation ([`Checker::follow`]).
#[derive(Debug, Default)]
struct Step {
    /// The revision it stated (a 2026-07-28 request's `_meta`, a recorded header).
    stated: Option<Revision>,
    /// The revision an `initialize` request proposed.
    proposed: Option<Revision>,
    /// The revision an `initialize` response agreed on.
    negotiated: Option<Revision>,
    /// A request left open, by its sender and id.
    asked: Option<((Side, IdKey), Pending)>,
}

impl Step {
    /// What a request (`id`, when it has one) or notification of `side` in `revision` tells.
    fn new(
        side: Side,
        revision: Revision,
        stated: Option<Revision>,
        request: Answering,
        id: Option<IdKey>,
    ) -> Step {
        Step {
            stated,
            proposed: (request.method == "initialize").then_some(revision),
            negotiated: None,
            asked: id.map(|id| ((side, id), Pending { request, revision })),
        }
    }

    /// [`Step::new`] for a message read by its framing: a request's, else nothing but what it
    /// stated.
    fn of_sent(
        side: Side,
        revision: Revision,
        facts: &Facts,
        id: Option<IdKey>,
        stated: Option<Revision>,
    ) -> Step {
        match &facts.shape {
            Shape::Request(method) => {
                let request = Answering {
                    method: Cow::Owned(method.clone()),
                    task: facts.asks_for_task(),
                };
                Step::new(side, revision, stated, request, id)
            }
            _ => Step {
                stated,
                ..Step::default()
            },
        }
    }
}

/// The revisions a message names: the one it states (`stated`: a 2026-07-28 request's `_meta`,
/// a recorded header) and, for an `initialize` request (`request`: a request's method), the one
/// it proposes; a version no revision has names none.
fn named(
    request: Option<&str>,
    stated: Option<&str>,
    proposed: Option<&str>,
) -> (Option<Revision>, Option<Revision>) {
    let known = |version: Option<&str>| version.and_then(Revision::from_version);
    let proposal = (request == Some("initialize")).then(|| known(proposed));
    (known(stated), proposal.flatten())
}

/// Who sent a request or notification, and what decoding it as that side's (`decode`) made of
/// it: the recorded sender; with none recorded, the client when it `fits` as the client's
/// (a method both sides have, `ping`, is the client's), else the server when it fits as the
/// server's, else the side whose messages include its method (by `unknown`: whether the
/// decoding found no such method), else the client.
fn by_sender<T>(
    from: Option<Side>,
    decode: impl Fn(Side) -> T,
    fits: impl Fn(&T) -> bool,
    unknown: impl Fn(&T) -> bool,
) -> (Side, T) {
    if let Some(side) = from {
        return (side, decode(side));
    }
    let client = decode(Side::Client);
    if fits(&client) {
        return (Side::Client, client);
    }
    let server = decode(Side::Server);
    if fits(&server) || (unknown(&client) && !unknown(&server)) {
        (Side::Server, server)
    } else {
        (Side::Client, client)
    }
}

/// A request or notification decoded by the borrowed family as its sender's ([`by_sender`]);
/// `None` for what the framing reads: one that does not decode, or decodes as a response.
fn decode_sent_by(revision: Revision, from: Option<Side>, text: &str) -> Option<(Side, Sent)> {
    let decode = |side| decode_sent(revision, side, text);
    let (side, sent) = by_sender(from, decode, Option::is_some, |_| false);
    Some((side, sent?.ok()?))
}

/// Who sent an answer whose request is not in the traffic: the recorded sender, else the
/// server (most answers are the server's).
fn answerer(from: Option<Side>) -> Side {
    from.unwrap_or(Side::Server)
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

/// What [`decode`] makes of a message.
type Checked = Result<Vec<Violation>, mcp_typed::jsonrpc::DecodeError>;

fn violation(pointer: &str, keyword: &str, expected: &str) -> Violation {
    Violation {
        pointer: pointer.to_owned(),
        keyword: keyword.to_owned(),
        expected: expected.to_owned(),
    }
}
