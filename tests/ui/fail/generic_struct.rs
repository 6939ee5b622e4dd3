use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form<T> {
    value: T,
}

fn main() {}
