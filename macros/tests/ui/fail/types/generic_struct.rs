use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form<T> {
    value: T,
}

fn main() {}
