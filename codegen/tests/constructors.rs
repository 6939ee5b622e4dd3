//! Every type the generator emits has its constructors, checked against the IR: each struct a
//! `new` taking exactly its required members (less those the spec fixes), a `with_` per
//! optional member and `with_extra` where undeclared members are kept; each union a `From` per
//! member whose type no other member has (a string member also from `&str`) and a constructor
//! named after the constant of each member a constant tells apart; each call set a constructor
//! per method. For every pinned revision and for the third-party schemas of the build step.

mod support;

use std::collections::{BTreeMap, BTreeSet};
use std::path::Path;

use mcp_codegen::ir::{Additional, Module, ObjectDispatch, Struct, TypeExpr, TypeKind};
use mcp_codegen::naming::field_name;
use quote::ToTokens;

/// The inherent functions of each type (name → parameter names) and the `From` impls of each
/// (target → source types), read off the emitted text.
#[derive(Default)]
struct Emitted {
    functions: BTreeMap<String, BTreeMap<String, Vec<String>>>,
    from: BTreeMap<String, Vec<String>>,
}

impl Emitted {
    fn of(text: &str) -> Self {
        let file = syn::parse_file(text).expect("the emitted text parses");
        let mut emitted = Emitted::default();
        for item in file.items {
            let syn::Item::Impl(imp) = item else { continue };
            let target = imp.self_ty.to_token_stream().to_string();
            match &imp.trait_ {
                None => {
                    let functions = emitted.functions.entry(target).or_default();
                    for item in &imp.items {
                        let syn::ImplItem::Fn(f) = item else { continue };
                        let params = f
                            .sig
                            .inputs
                            .iter()
                            .filter_map(|input| match input {
                                syn::FnArg::Typed(t) => Some(t.pat.to_token_stream().to_string()),
                                syn::FnArg::Receiver(_) => None,
                            })
                            .collect();
                        functions.insert(f.sig.ident.to_string(), params);
                    }
                }
                Some((path, _)) => {
                    let last = path.segments.last().expect("a trait path");
                    if last.ident != "From" {
                        continue;
                    }
                    let syn::PathArguments::AngleBracketed(args) = &last.arguments else {
                        continue;
                    };
                    let source = args.args.to_token_stream().to_string();
                    emitted.from.entry(target).or_default().push(source);
                }
            }
        }
        emitted
    }

    fn function(&self, ty: &str, name: &str) -> Option<&Vec<String>> {
        self.functions.get(ty)?.get(name)
    }
}

fn resolve<'a>(module: &'a Module, mut ty: &'a TypeExpr) -> &'a TypeExpr {
    for _ in 0..16 {
        let TypeExpr::Named(name) = ty else { break };
        match module.get(name).map(|t| &t.kind) {
            Some(TypeKind::Alias(target)) => ty = target,
            _ => break,
        }
    }
    ty
}

/// The parameters `new` must take: the required members the spec does not fix, in order.
fn new_params(s: &Struct) -> Vec<String> {
    s.fields
        .iter()
        .filter(|f| f.required && f.fixed.is_none())
        .map(|f| f.rust_name.clone())
        .collect()
}

/// Checks every type of `module` against `text`, emitted from it; returns what is missing.
fn check(module: &Module, text: &str) -> Vec<String> {
    let emitted = Emitted::of(text);
    let mut missing = Vec::new();
    let mut counts = [0usize; 4];
    for t in &module.types {
        let name = t.name.trim_start_matches("r#");
        match &t.kind {
            TypeKind::Struct(s) => {
                counts[0] += 1;
                match emitted.function(name, "new") {
                    Some(params) if *params == new_params(s) => {}
                    other => missing.push(format!(
                        "{name}::new: {other:?}, expected {:?}",
                        new_params(s)
                    )),
                }
                for f in s.fields.iter().filter(|f| !f.required) {
                    let setter = format!(
                        "with_{}",
                        f.rust_name.trim_start_matches("r#").trim_start_matches('_')
                    );
                    if emitted.function(name, &setter).is_none() {
                        missing.push(format!("{name}::{setter}"));
                    }
                }
                if s.additional != Additional::Forbidden
                    && emitted.function(name, "with_extra").is_none()
                {
                    missing.push(format!("{name}::with_extra"));
                }
            }
            TypeKind::Union(u) => {
                counts[1] += 1;
                let members: Vec<&TypeExpr> =
                    u.variants.iter().map(|v| resolve(module, &v.ty)).collect();
                let convertible: Vec<&&TypeExpr> = members
                    .iter()
                    .filter(|m| members.iter().filter(|o| o == m).count() == 1)
                    .filter(|m| !matches!(m, TypeExpr::Nullable(_)))
                    .collect();
                let expected = convertible.len()
                    + convertible
                        .iter()
                        .filter(|m| ****m == TypeExpr::String)
                        .count();
                let found = emitted.from.get(name).map_or(0, Vec::len);
                if found != expected {
                    missing.push(format!(
                        "{name}: {found} From impls, expected {expected} ({convertible:?})"
                    ));
                }
                // (the value, the member, the member holding the value where it is not a
                // constant)
                let tagged: Vec<(&str, usize, Option<&str>)> = match &u.objects {
                    ObjectDispatch::Tagged { cases, .. } => cases
                        .iter()
                        .map(|(tag, i)| (tag.as_str(), *i, None))
                        .collect(),
                    ObjectDispatch::Keyed {
                        fallback,
                        partition: Some(p),
                        ..
                    } => p
                        .cases
                        .iter()
                        .filter(|(_, cases)| cases.len() == 1)
                        .map(|(tag, cases)| {
                            (
                                tag.as_str(),
                                fallback[cases[0]].variant,
                                Some(p.tag.as_str()),
                            )
                        })
                        .collect(),
                    _ => Vec::new(),
                };
                // A method-like value (`"ref/prompt"`) names the variant instead.
                let name_of = |tag: &str, i: usize| {
                    if tag.contains('/') {
                        field_name(&u.variants[i].name)
                    } else {
                        field_name(tag)
                    }
                };
                let names: BTreeSet<String> =
                    tagged.iter().map(|(tag, i, _)| name_of(tag, *i)).collect();
                for (tag, i, holder) in &tagged {
                    let TypeExpr::Named(member) = resolve(module, &u.variants[*i].ty) else {
                        continue;
                    };
                    let Some(TypeKind::Struct(s)) = module.get(member).map(|t| &t.kind) else {
                        continue;
                    };
                    let fn_name = name_of(tag, *i);
                    if names.len() < tagged.len() {
                        continue;
                    }
                    let holder_field = holder
                        .and_then(|h| s.fields.iter().find(|f| f.json_name == h && f.required));
                    let expected: Vec<String> = new_params(s)
                        .into_iter()
                        .filter(|p| holder_field.is_none_or(|f| f.rust_name != *p))
                        .collect();
                    match emitted.function(name, &fn_name) {
                        Some(params) if *params == expected => {}
                        other => missing.push(format!(
                            "{name}::{fn_name}: {other:?}, expected {expected:?}"
                        )),
                    }
                }
            }
            TypeKind::Calls(set) => {
                counts[2] += 1;
                for c in &set.calls {
                    let fn_name = field_name(&c.variant);
                    if emitted.function(name, &fn_name).is_none() {
                        missing.push(format!("{name}::{fn_name}"));
                    }
                }
            }
            TypeKind::StringEnum(_) | TypeKind::Alias(_) => counts[3] += 1,
        }
    }
    if let Some(messages) = &module.messages {
        for d in &messages.directions {
            let mut expected = Vec::new();
            if d.requests.is_some() {
                expected.push("request");
            }
            if d.notifications.is_some() {
                expected.push("notification");
            }
            if d.responds {
                expected.extend(["response", "error", "error_without_id"]);
            }
            for f in expected {
                if emitted.function(&d.name, f).is_none() {
                    missing.push(format!("{}::{f}", d.name));
                }
            }
        }
    }
    assert!(counts[0] > 0, "no struct checked");
    missing
}

fn check_file(schema: &Path) -> Vec<String> {
    let module = mcp_codegen::load_schema_file(schema).expect("the schema loads");
    let text = mcp_codegen::Config::new()
        .schema_path(schema)
        .generate_string()
        .expect("the schema generates");
    check(&module, &text)
        .into_iter()
        .map(|m| format!("{}: {m}", schema.display()))
        .collect()
}

#[test]
fn every_type_of_every_revision_has_its_constructors() {
    let mirror = support::mirror();
    let mut missing = Vec::new();
    for revision in [
        "2024-11-05",
        "2025-03-26",
        "2025-06-18",
        "2025-11-25",
        "2026-07-28",
    ] {
        missing.extend(check_file(&mirror.join(revision).join("schema.json")));
    }
    assert!(
        missing.is_empty(),
        "missing constructors:\n{}",
        missing.join("\n")
    );
}

#[test]
fn every_type_of_the_third_party_schemas_has_its_constructors() {
    let repo = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let pins = mcp_codegen::fetch::ThirdPartyPins::load(
        &repo
            .join("schema")
            .join(mcp_codegen::fetch::THIRD_PARTY_MANIFEST),
    )
    .expect("the third-party pins");
    let mirror = std::env::var_os(mcp_codegen::fetch::MIRROR_ENV)
        .filter(|dir| !dir.is_empty())
        .map(|dir| repo.join(dir));
    let mut missing = Vec::new();
    let mut checked = 0;
    for name in ["ext-apps", "rmcp-client-message", "rmcp-server-message"] {
        let pin = pins.get(name).expect("a pin");
        let fetched =
            mcp_codegen::fetch::fetch_third_party(pin, &repo.join("schema"), mirror.as_deref())
                .unwrap_or_else(|e| panic!("fetching `{name}`: {e}"));
        missing.extend(check_file(&fetched.schema));
        checked += 1;
    }
    assert_eq!(checked, 3);
    assert!(
        missing.is_empty(),
        "missing constructors:\n{}",
        missing.join("\n")
    );
}
