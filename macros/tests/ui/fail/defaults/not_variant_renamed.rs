use std::collections::BTreeSet;

use mcp_typed::Elicit;

#[derive(PartialEq, Eq, PartialOrd, Ord, Elicit)]
#[serde(rename_all = "kebab-case")]
enum Plan {
    FreeTier,
    #[elicit(title = "Pro")]
    ProTier,
    #[serde(rename = "{team}")]
    Team,
}

#[derive(Elicit)]
struct Form {
    // The options are the values of the variants, after renaming: not their Rust names.
    #[elicit(default = "ProTier")]
    plan: Option<Plan>,
    // Each value of a multi select's default is reported where it is written.
    #[elicit(min_items = 1, default = ["free-tier", "team"])]
    plans: BTreeSet<Plan>,
}

fn main() {}
