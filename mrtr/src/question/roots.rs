//! A `roots/list`: the client's roots.

use serde_json::{Map, Value};

use super::Question;
use super::{decode, wrong_kind, Answerer, AskError, ResponseError};
use mcp_typed::v2026_07_28::{
    ClientCapabilities, InputRequest, InputResponse, ListRootsRequest, ListRootsResult, Root,
};

/// A `roots/list`; the answer is the roots the client listed. Needs `roots`.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Roots;

impl Question for Roots {
    type Answer = Vec<Root>;

    fn request(&self, _key: &str) -> Result<InputRequest, AskError> {
        Ok(InputRequest::ListRoots(ListRootsRequest::default()))
    }

    fn read(key: &str, answer: &InputResponse) -> Result<Vec<Root>, ResponseError> {
        match answer {
            InputResponse::ListRoots(result) => Ok(result.roots.clone()),
            other => Err(wrong_kind(key, ListRootsRequest::METHOD, other)),
        }
    }

    fn read_json(key: &str, answer: &Value) -> Result<Vec<Root>, ResponseError> {
        decode::<ListRootsResult>(key, answer).map(|result| result.roots)
    }
}

/// The capability roots need that the client did not declare.
pub(super) fn needs(capabilities: &ClientCapabilities) -> Result<(), &'static str> {
    match capabilities.roots {
        Some(_) => Ok(()),
        None => Err("roots"),
    }
}

/// The client's answer: the roots `answerer` lists.
pub(super) fn answer(key: &str, answerer: &mut impl Answerer) -> InputResponse {
    InputResponse::ListRoots(ListRootsResult {
        roots: answerer.roots(key),
        extra: Map::new(),
    })
}
