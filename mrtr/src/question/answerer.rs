//! The client application's side of every kind of input: the [`Answerer`] a client half hands
//! each request to (its user interface, its model, its roots).

use serde_json::{Map, Value};

use mcp_typed::elicit::RequestedSchema;
use mcp_typed::v2026_07_28::{
    CreateMessageRequestParams, CreateMessageResult, ElicitResultAction, Root,
};

/// What the user did with a form.
#[derive(Debug, Clone, PartialEq)]
pub enum FormAnswer {
    /// Submitted these values (the schema's defaults fill what is missing).
    Accept(Map<String, Value>),
    /// Declined to answer.
    Decline,
    /// Dismissed the form.
    Cancel,
}

/// Answers the input requests of a server: the client application's side (its user interface,
/// its model, its roots).
pub trait Answerer {
    /// A form-mode elicitation under `key`: show `message` and the form `schema`.
    fn form(&mut self, key: &str, message: &str, schema: &RequestedSchema) -> FormAnswer;

    /// A URL-mode elicitation under `key`: offer to open `url` (an absolute URI the server
    /// chose; show its host), with `message`. Accept means the user went there.
    fn url(&mut self, key: &str, message: &str, url: &str) -> ElicitResultAction;

    /// A `sampling/createMessage` under `key`: the model's reply, or why there is none (the
    /// retry is not built then).
    fn sample(
        &mut self,
        key: &str,
        params: &CreateMessageRequestParams,
    ) -> Result<CreateMessageResult, String>;

    /// A `roots/list` under `key`: the client's roots.
    fn roots(&mut self, key: &str) -> Vec<Root>;
}
