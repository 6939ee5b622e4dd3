//! Following a conversation: which revision each message belongs to, who sent it, and which
//! request a response answers; each message checked with the generated types of its revision.

use std::borrow::Cow;
use std::collections::HashMap;

use mcp_typed::jsonrpc::DecodeErrorKind;
use serde_json::Value;

use crate::revision::{
    decode, decode_answer, decode_error_by_code, leniencies, shape_of, Answering, Revision, Shape,
    Side, Violation,
};
use crate::traffic::Entry;

/// The `_meta` member by which a 2026-07-28 request names its protocol version.
const META_PROTOCOL_VERSION: &str = "io.modelcontextprotocol/protocolVersion";

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
    /// Everything wrong with it; empty when it is valid.
    pub violations: Vec<Violation>,
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
    /// Open requests by their sender and id (the id as JSON text).
    pending: HashMap<(Side, String), Pending>,
    count: usize,
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

    /// Checks the next message of the conversation.
    pub fn check(&mut self, entry: &Entry) -> Verdict {
        self.count += 1;
        let from = entry.from.or(self.sender);
        let mut verdict = Verdict {
            number: self.count,
            line: entry.line,
            from,
            method: None,
            revision: None,
            violations: Vec::new(),
        };
        let message = match &entry.message {
            Ok(message) => message,
            Err(why) => {
                verdict.violations.push(violation("", "json", why));
                return verdict;
            }
        };
        let shape = shape_of(message);
        // The generated types decode text: the line's own, else the value written out.
        let text: Cow<str> = match &entry.text {
            Some(text) => Cow::Borrowed(text),
            None => Cow::Owned(message.to_string()),
        };
        let id = message.get("id").map(Value::to_string);
        let answered = self.answered(from, &shape, id.as_deref());
        verdict.method = match (&shape, &answered) {
            (Shape::Request(m) | Shape::Notification(m), _) => Some(m.clone()),
            (_, Some((_, pending))) => Some(pending.request.method.clone()),
            _ => None,
        };
        let Some(revision) = self.revision_of(entry, message, &shape, answered.as_ref()) else {
            // An error response has the same shape in every revision: one answering a request
            // for a revision nobody knows (`server/discover` with an unsupported version) is
            // checked as 2025-11-25's, where both sides answer.
            if shape == Shape::Error {
                let side = from.unwrap_or(Side::Server);
                verdict.from = Some(side);
                if let Err(error) = decode(Revision::V2025_11_25, side, &text) {
                    (verdict.violations).push(Violation::from_decode_error(&error));
                }
                return verdict;
            }
            verdict.violations.push(violation(
                "",
                "revision",
                "a protocol revision: no `initialize` came before this message; give \
                 --revision for traffic recorded without one",
            ));
            return verdict;
        };
        verdict.revision = Some(revision);
        let known = from.or(answered.as_ref().map(|(side, _)| *side));
        let (side, checked) = match (known, &shape, &answered) {
            // A result: as the result type of the request it answers.
            (Some(side), Shape::Response, Some((_, pending))) => {
                let answer = decode_answer(revision, side, &pending.request, message, &text);
                (
                    side,
                    answer.unwrap_or_else(|| decode(revision, side, &text)),
                )
            }
            (Some(side), _, _) => (side, decode(revision, side, &text)),
            (None, Shape::Request(_) | Shape::Notification(_), _) => guess_side(revision, &text),
            // An answer to a request not in the traffic: most answers are the server's.
            (None, Shape::Response | Shape::Error, _) => {
                (Side::Server, decode(revision, Side::Server, &text))
            }
        };
        verdict.from = Some(side);
        match checked {
            Ok(broken) => {
                verdict.violations.extend(broken);
                verdict
                    .violations
                    .extend(leniencies(revision, &shape, message));
                // An error of a code with a definition of its own: checked as that one too.
                let by_code = (shape == Shape::Error)
                    .then(|| decode_error_by_code(revision, message, &text))
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
        self.follow(side, &shape, id, revision, message, answered);
        verdict
    }

    /// The request a response answers (removed from the open ones) and the side that sent
    /// the response: the other side of the request's.
    fn answered(
        &mut self,
        from: Option<Side>,
        shape: &Shape,
        id: Option<&str>,
    ) -> Option<(Side, Pending)> {
        if !matches!(shape, Shape::Response | Shape::Error) {
            return None;
        }
        let id = id?.to_owned();
        let requesters = match from {
            Some(side) => vec![side.other()],
            None => vec![Side::Client, Side::Server],
        };
        requesters.into_iter().find_map(|requester| {
            let pending = self.pending.remove(&(requester, id.clone()))?;
            Some((requester.other(), pending))
        })
    }

    /// The revision `message` belongs to: the one its request named (a response), the one it
    /// names itself (a 2026-07-28 request's `_meta`, a recorded header, an `initialize`'s
    /// proposal), else the negotiated one, else the last one stated, else the one proposed,
    /// else the assumed one.
    fn revision_of(
        &mut self,
        entry: &Entry,
        message: &Value,
        shape: &Shape,
        answered: Option<&(Side, Pending)>,
    ) -> Option<Revision> {
        if let Some((_, pending)) = answered {
            return Some(pending.revision);
        }
        let stated = message["params"]["_meta"][META_PROTOCOL_VERSION]
            .as_str()
            .or(entry.header_version.as_deref())
            .and_then(Revision::from_version);
        if stated.is_some() {
            self.stated = stated;
        }
        let named = stated.or_else(|| {
            match shape {
                Shape::Request(m) if m == "initialize" => {
                    message["params"]["protocolVersion"].as_str()
                }
                _ => None,
            }
            .and_then(Revision::from_version)
        });
        (named.or(self.negotiated).or(self.stated))
            .or(self.proposed)
            .or(self.assumed)
    }

    /// Keeps the open requests and the negotiated revision up to date.
    fn follow(
        &mut self,
        side: Side,
        shape: &Shape,
        id: Option<String>,
        revision: Revision,
        message: &Value,
        answered: Option<(Side, Pending)>,
    ) {
        match shape {
            Shape::Request(method) => {
                if method == "initialize" {
                    self.proposed = Some(revision);
                }
                if let Some(id) = id {
                    let task = message["params"].get("task").is_some();
                    let pending = Pending {
                        request: Answering {
                            method: method.clone(),
                            task,
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
                    let agreed = message["result"]["protocolVersion"].as_str();
                    self.negotiated = agreed.and_then(Revision::from_version).or(Some(revision));
                }
            }
            Shape::Notification(_) | Shape::Error => {}
        }
    }
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
