//! Compile-fail and compile-pass cases of `#[derive(Elicit)]`, with reviewed `.stderr` files.
//! The compile-fail cases are in folders by topic: what a form field cannot be (`types`), the
//! options of an enum (`options`), contradictory bounds (`bounds`), defaults that break their
//! constraints (`defaults`), patterns, formats, constraints on the wrong kind of field
//! (`kinds`), property names, attributes, names that ask for secrets (`sensitive`), URLs in
//! texts (`urls`), and several errors at once (`combined`). The messages of the consistency
//! rules are `mcp-elicit`'s, as `RequestedSchema::problems` gives them to a client.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("tests/ui/fail/*/*.rs");
    t.pass("tests/ui/pass/*.rs");
}
