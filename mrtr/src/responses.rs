//! Reading the retry: the client's `inputResponses`.

use serde_json::{Map, Value};

use super::question::{Form, Question, ResponseError, Roots, Sampling, Url};
use super::RetryParams;
use mcp_typed::elicit::{json_kind as kind, Elicit, ElicitOutcome};
use mcp_typed::v2026_07_28::{CreateMessageResult, InputResponse, InputResponses, Root};

/// The client's answers on a retry (`inputResponses`), read by key.
///
/// Each reader returns `Ok(None)` when the client did not answer the key: the spec says the
/// server should then ask again (answer with a new `InputRequiredResult`), not fail. An answer
/// of the wrong kind, malformed, or (for a form) breaking the schema is a [`ResponseError`]
/// with the key and the JSON pointer of the problem, relative to the request's `params`
/// (`/inputResponses/github_login/content/name`). Keys that were not asked for are ignored.
///
/// Read typed params with [`Responses::of`] (or [`Responses::new`]). The generated
/// `InputResponse` type decodes the whole request or nothing: a client whose answer does not
/// fit it makes the request fail with -32602 before any key is read. [`Responses::from_json`]
/// reads the raw JSON instead (from [`RawMessage`](mcp_typed::jsonrpc::RawMessage) params, say), so
/// that one bad answer is reported on its own, with its path.
///
/// ```
/// use mcp_typed::elicit::ElicitOutcome;
/// use mcp_mrtr::{ResponseError, Responses};
/// use mcp_typed::v2026_07_28::InputResponses;
/// use mcp_typed::Elicit;
///
/// #[derive(Debug, Elicit)]
/// struct Login {
///     #[elicit(min_length = 1)]
///     name: String,
/// }
///
/// let answers: InputResponses = serde_json::from_str(
///     r#"{"github_login":{"action":"accept","content":{"name":"octocat"}},
///         "other":{"action":"accept","content":{"name":""}},
///         "unasked":{"roots":[]}}"#,
/// )?;
/// let responses = Responses::new(Some(&answers));
/// match responses.elicited::<Login>("github_login")? {
///     Some(ElicitOutcome::Accepted(login)) => assert_eq!(login.name, "octocat"),
///     other => panic!("{other:?}"),
/// }
/// // Not answered: ask again.
/// assert!(responses.elicited::<Login>("missing")?.is_none());
/// // Answered, but not a valid answer to the form.
/// let error = responses.elicited::<Login>("other").unwrap_err();
/// assert!(matches!(&error, ResponseError::Invalid { key, .. } if key == "other"));
/// assert_eq!(error.path(), "/inputResponses/other/content/name");
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, Copy)]
pub struct Responses<'a> {
    source: Source<'a>,
}

#[derive(Debug, Clone, Copy)]
enum Source<'a> {
    Typed(Option<&'a InputResponses>),
    Json(Option<&'a Map<String, Value>>),
}

/// One answer, whichever way the responses were read.
enum Answer<'a> {
    Typed(&'a InputResponse),
    Json(&'a Value),
}

impl<'a> Responses<'a> {
    /// The answers of a decoded `inputResponses` (`None`: the request had none).
    pub fn new(responses: Option<&'a InputResponses>) -> Self {
        Self {
            source: Source::Typed(responses),
        }
    }

    /// The answers carried by a retried request.
    pub fn of<P: RetryParams>(params: &'a P) -> Self {
        Self::new(params.input_responses())
    }

    /// The answers of a raw `inputResponses` member (`None`: the request had none), each read
    /// only when asked for. Anything but an object (`null` included) is a
    /// [`ResponseError::Malformed`] with an empty key and the path `/inputResponses`.
    pub fn from_json(responses: Option<&'a Value>) -> Result<Self, ResponseError> {
        match responses {
            None => Ok(Self {
                source: Source::Json(None),
            }),
            Some(Value::Object(map)) => Ok(Self {
                source: Source::Json(Some(map)),
            }),
            Some(other) => Err(ResponseError::Malformed {
                key: String::new(),
                path: "/inputResponses".to_owned(),
                message: format!("inputResponses must be an object, not {}", kind(other)),
            }),
        }
    }

    /// Whether the client sent no answer at all.
    pub fn is_empty(&self) -> bool {
        match self.source {
            Source::Typed(map) => map.is_none_or(|map| map.is_empty()),
            Source::Json(map) => map.is_none_or(|map| map.is_empty()),
        }
    }

    /// Whether the client answered `key`.
    pub fn contains(&self, key: &str) -> bool {
        self.get(key).is_some()
    }

    /// The keys the client answered, in the order it sent them.
    pub fn keys(&self) -> impl Iterator<Item = &'a str> + 'a {
        let (typed, json) = match self.source {
            Source::Typed(map) => (map, None),
            Source::Json(map) => (None, map),
        };
        typed
            .into_iter()
            .flat_map(|map| map.keys())
            .chain(json.into_iter().flat_map(|map| map.keys()))
            .map(String::as_str)
    }

    fn get(&self, key: &str) -> Option<Answer<'a>> {
        match self.source {
            Source::Typed(map) => map.and_then(|map| map.get(key)).map(Answer::Typed),
            Source::Json(map) => map.and_then(|map| map.get(key)).map(Answer::Json),
        }
    }

    /// The answer to `Q` asked under `key` (any kind: [`question`](crate::question)): `Ok(None)`
    /// when the client did not answer it, else what [`Question::read`] (or, for raw responses,
    /// [`Question::read_json`]) makes of it.
    pub fn answer<Q: Question>(&self, key: &str) -> Result<Option<Q::Answer>, ResponseError> {
        match self.get(key) {
            None => Ok(None),
            Some(Answer::Typed(answer)) => Q::read(key, answer).map(Some),
            Some(Answer::Json(value)) => Q::read_json(key, value).map(Some),
        }
    }

    /// The answer to the form-mode elicitation asked under `key` with the form `T`:
    /// `Ok(None)` when the client did not answer it, else the user's decision, an accepted
    /// form validated and built with [`Elicit::from_content`] (an accept without `content` is
    /// checked as an empty form). A decline or cancel is never validated.
    ///
    /// Errors: [`ResponseError::WrongKind`] for a sampling or roots result,
    /// [`ResponseError::Malformed`] for a raw answer that is not an elicitation result, and
    /// [`ResponseError::Invalid`] with every violated constraint for accepted content that
    /// breaks the form's schema.
    pub fn elicited<T: Elicit>(
        &self,
        key: &str,
    ) -> Result<Option<ElicitOutcome<T>>, ResponseError> {
        self.answer::<Form<T>>(key)
    }

    /// The answer to the URL-mode elicitation asked under `key`: `Ok(None)` when the client did
    /// not answer it, else whether the user accepted (opened the URL), declined or cancelled.
    /// A URL-mode answer has no content; content sent anyway is ignored.
    pub fn url_elicited(&self, key: &str) -> Result<Option<ElicitOutcome<()>>, ResponseError> {
        self.answer::<Url>(key)
    }

    /// The answer to the `sampling/createMessage` request asked under `key` (`Ok(None)` when
    /// the client did not answer it).
    pub fn sampled(&self, key: &str) -> Result<Option<CreateMessageResult>, ResponseError> {
        self.answer::<Sampling>(key)
    }

    /// The roots the client listed for the `roots/list` request asked under `key` (`Ok(None)`
    /// when the client did not answer it).
    pub fn roots(&self, key: &str) -> Result<Option<Vec<Root>>, ResponseError> {
        self.answer::<Roots>(key)
    }
}
