use mcp_schema::Elicit;

#[derive(Elicit)]
struct Form(String, u8);

fn main() {}
