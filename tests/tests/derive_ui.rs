//! Compile-fail and compile-pass cases of `#[derive(Elicit)]`, with reviewed `.stderr` files.

#[test]
fn ui() {
    let t = trybuild::TestCases::new();
    t.compile_fail("ui/fail/*.rs");
    t.pass("ui/pass/*.rs");
}
