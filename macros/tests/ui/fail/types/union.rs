use mcp_typed::Elicit;

#[derive(Elicit)]
union Bits {
    a: u32,
    b: f32,
}

fn main() {}
