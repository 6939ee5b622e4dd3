//! What the differential test against ajv (../ajv_differential.rs) is made of.

pub mod ajv;
pub mod mutate;
pub mod schema;
pub mod suite;
