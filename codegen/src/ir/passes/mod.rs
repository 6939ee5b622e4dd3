//! The IR → IR passes: what is decided once every type of a schema is built, because it depends
//! on other types (what a named member accepts, which types contain which). [`run`] applies them
//! all, in order; `crate::schema::load` calls it after building the module.

mod boxing;
mod cycles;
mod layout;
mod messages;
mod spec_rules;
mod unions;

pub(crate) use messages::unanswered_requests;

use crate::ir::Module;
use crate::schema_error::SchemaError;
use crate::settings::Settings;

/// Runs every pass over a freshly loaded module.
pub(crate) fn run(module: &mut Module, settings: &Settings) -> Result<(), SchemaError> {
    // First: an alias cycle is refused with its pointer before the passes that follow aliases.
    cycles::check_alias_cycles(module)?;
    // Before the unions: a member a spec rule fills in does not decide a shape.
    spec_rules::apply(module);
    // Before the messages: the direction unions are checked and dispatched while still unions.
    unions::finalize(module)?;
    // After the unions: replaces the direction unions by call sets and pairs the results.
    messages::derive(module, settings)?;
    // After the messages: the params of the call sets it made are sized and boxed too.
    layout::box_large_members(module);
    // Last: the size estimates of `layout` are taken with no field boxed yet.
    boxing::mark_boxed_fields(module);
    Ok(())
}
