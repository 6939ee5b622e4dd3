//! Errata: applied where their expectation holds, refused with a pointer where the official
//! schema does not look as the erratum expects (an upstream fix is reviewed, never patched over),
//! and a malformed errata file is refused with what is wrong.

use mcp_codegen::errata::{self, Errata};
use mcp_codegen::revisions::Dialect;
use mcp_codegen::SchemaError;
use serde_json::{json, Value};

const ERRATUM: &str = r#"
[[erratum]]
id = "numbers"
summary = "Numbers too."
why = "Because."
evidence = ["a peer"]

[[erratum.change]]
revisions = ["r1"]
definition = "Answer"
path = "/properties/value/type"
expect = ["string", "integer"]
value = ["string", "integer", "number"]

[[erratum.change]]
revisions = ["r1", "r2"]
definition = "Answer"
path = "/properties/note"
value = { type = "string" }

[[erratum.witness]]
revisions = ["r1"]
definition = "Answer"
json = '{"value":1.5}'
official_refuses = true
"#;

fn schema() -> Value {
    json!({"$defs": {"Answer": {"type": "object", "properties": {"value": {"type": ["string", "integer"]}}}}})
}

fn apply(errata: &Errata, revision: &str, root: &mut Value) -> Result<(), SchemaError> {
    errata::apply(root, Dialect::Draft2020_12, &errata.for_revision(revision))
}

#[test]
fn changes_apply_to_their_revisions_only() {
    let errata = Errata::parse(ERRATUM).expect("parses");
    let mut r1 = schema();
    apply(&errata, "r1", &mut r1).expect("applies");
    assert_eq!(
        r1["$defs"]["Answer"]["properties"],
        json!({"value": {"type": ["string", "integer", "number"]}, "note": {"type": "string"}})
    );
    let mut r2 = schema();
    apply(&errata, "r2", &mut r2).expect("applies");
    assert_eq!(
        r2["$defs"]["Answer"]["properties"],
        json!({"value": {"type": ["string", "integer"]}, "note": {"type": "string"}})
    );
    let mut other = schema();
    apply(&errata, "r3", &mut other).expect("nothing to apply");
    assert_eq!(other, schema());
}

#[test]
fn the_generated_docs_name_the_erratum() {
    let errata = Errata::parse(ERRATUM).expect("parses");
    let mut root = schema();
    let changes = errata.for_revision("r1");
    errata::apply(&mut root, Dialect::Draft2020_12, &changes).expect("applies");
    let mut module = mcp_codegen::load_schema(&root).expect("loads");
    errata::annotate(&mut module, Dialect::Draft2020_12, &changes);
    let answer = module.by_schema_name("Answer").expect("the definition");
    assert_eq!(
        answer.errata,
        ["**Erratum** `numbers` (schema/errata.toml): Numbers too."]
    );
    let value = module.get("AnswerValue").expect("the inline union");
    assert_eq!(
        value.errata.len(),
        1,
        "the changed inline type is annotated"
    );
}

#[test]
fn an_official_schema_that_changed_is_refused_with_its_pointer() {
    let errata = Errata::parse(ERRATUM).expect("parses");
    // Upstream fixed the defect: the expectation no longer holds.
    let mut fixed = json!({"$defs": {"Answer": {"type": "object", "properties": {"value": {"type": ["string", "number"]}}}}});
    let error = apply(&errata, "r1", &mut fixed).expect_err("refused");
    assert_eq!(error.pointer, "/$defs/Answer/properties/value/type");
    assert!(error.message.contains("erratum `numbers`"), "{error}");
    assert!(error.message.contains("review the erratum"), "{error}");
    // The member to add exists already.
    let mut added = json!({"$defs": {"Answer": {"type": "object", "properties": {"note": {"type": "integer"}}}}});
    let error = apply(&errata, "r2", &mut added).expect_err("refused");
    assert_eq!(error.pointer, "/$defs/Answer/properties/note");
    assert!(error.message.contains("expected no member"), "{error}");
    // The definition is gone.
    let mut gone = json!({"$defs": {}});
    let error = apply(&errata, "r2", &mut gone).expect_err("refused");
    assert_eq!(error.pointer, "/$defs/Answer/properties/note");
    assert!(
        error.message.contains("no `/$defs/Answer/properties`"),
        "{error}"
    );
}

#[test]
fn malformed_errata_files_are_refused() {
    let cases = [
        (
            ERRATUM.replace("id = \"numbers\"", ""),
            "missing field `id`",
        ),
        (
            ERRATUM.replace("path = \"/properties/note\"", "path = \"properties/note\""),
            "must be a JSON pointer",
        ),
        (
            format!("{ERRATUM}\n{}", ERRATUM.trim_start()),
            "listed twice",
        ),
        (
            ERRATUM[..ERRATUM.find("[[erratum.witness]]").expect("witness")].to_owned(),
            "has no witness",
        ),
        (
            ERRATUM.replace("why =", "reason ="),
            "unknown field `reason`",
        ),
        (
            ERRATUM.replace("evidence = [\"a peer\"]", "evidence = 3"),
            "erratum 1: field `evidence`: expected an array of strings, found integer",
        ),
        (
            ERRATUM.replace("path = \"/properties/note\"", "path = 1979-05-27"),
            "field `path`: expected a string, found datetime",
        ),
    ];
    for (text, expected) in cases {
        let error = Errata::parse(&text).expect_err("refused");
        assert!(
            error.contains(expected),
            "`{error}` should say `{expected}`"
        );
    }
}
