#![deny(warnings)]

use std::collections::HashSet;

use mcp_typed::elicit::{Elicit, PropertySchema};

mod plans {
    /// Options whose values are renamed (one of them with braces), declared in another module.
    #[derive(Debug, PartialEq, Eq, Hash, mcp_typed::Elicit)]
    #[serde(rename_all = "kebab-case")]
    pub enum Plan {
        FreeTier,
        #[elicit(title = "Pro")]
        ProTier,
        #[serde(rename = "{team}")]
        Team,
    }
}

/// Defaults that are options and a `min_items` within the options, checked at compile time
/// without a warning.
#[derive(Debug, mcp_typed::Elicit)]
struct Form {
    #[elicit(default = "{team}")]
    plan: plans::Plan,
    #[elicit(min_items = 3, default = ["free-tier", "pro-tier", "{team}"])]
    plans: Option<HashSet<plans::Plan>>,
}

fn main() {
    let schema = Form::requested_schema();
    assert!(schema.check().is_ok());
    let Some(PropertySchema::SingleSelect(plan)) = schema.property("plan") else {
        panic!("a single select");
    };
    assert_eq!(plan.default.as_deref(), Some("{team}"));
    let form = Form::from_content(&schema.defaults()).expect("the defaults are valid");
    assert_eq!(form.plan, plans::Plan::Team);
    assert_eq!(form.plans.map(|plans| plans.len()), Some(3));
    assert!(plans::Plan::FreeTier != plans::Plan::ProTier);
}
