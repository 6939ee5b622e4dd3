//! A crate that depends on `mcp-typed-rmcp` alone (no `mcp-typed`, no `serde`) and derives its
//! forms through the adapter's re-exports, as the README tells a newcomer to:
//! `#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]`. Every path of the derive's expansion must
//! go through that path: one left as `::mcp_typed` does not compile here. The forms are public
//! items of a library with `missing_docs` on, which the expansion must not trip.
#![warn(missing_docs)]

use mcp_typed_rmcp::Elicit;

/// The README's form (section "With rmcp").
#[derive(Debug, PartialEq, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")] // mcp-typed reached through the adapter
pub struct Confirm {
    /// Type the name of the repository to confirm
    pub repository: String,
}

/// A form with a field of every scalar kind, an enum and optional fields, declared out of
/// alphabetical order.
#[derive(Debug, PartialEq, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
#[serde(rename_all = "camelCase")]
pub struct Booking {
    /// The day of the booking
    #[elicit(format = "date")]
    pub date: String,
    /// How many people
    #[elicit(minimum = 1, maximum = 12, default = 2)]
    pub party_size: u8,
    /// Where to sit
    #[elicit(default = "indoor")]
    pub seating: Seating,
    /// Anything we should know
    #[elicit(max_length = 200)]
    pub notes: Option<String>,
    /// Send a reminder the day before
    pub reminder: bool,
    /// The diets to cater for
    pub diets: Option<Vec<Diet>>,
}

/// A single select with titled options.
#[derive(Debug, PartialEq, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
#[serde(rename_all = "lowercase")]
pub enum Seating {
    /// Inside
    #[elicit(title = "Indoor")]
    Indoor,
    /// On the terrace
    #[elicit(title = "Terrace")]
    Outdoor,
}

/// A multi select with untitled options.
#[derive(Debug, PartialEq, Elicit)]
#[elicit(crate = "mcp_typed_rmcp::mcp_typed")]
#[serde(rename_all = "kebab-case")]
pub enum Diet {
    /// No meat
    Vegetarian,
    /// No gluten
    GlutenFree,
}
