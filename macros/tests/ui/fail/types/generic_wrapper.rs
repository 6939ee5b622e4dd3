use mcp_typed::Elicit;

struct Wrapper<T>(T);

#[derive(Elicit)]
struct Form {
    name: Wrapper<String>,
}

fn main() {}
