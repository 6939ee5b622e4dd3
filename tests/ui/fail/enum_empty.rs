use mcp_schema::Elicit;

#[derive(Elicit)]
enum Nothing {}

fn main() {}
