use mcp_typed::Elicit;

#[derive(Elicit)]
struct Form {
    #[elicit(format = "email", default = "not an email")]
    email: String,
    #[elicit(default = "example.com/home", format = "uri")]
    homepage: Option<String>,
    #[elicit(format = "date", default = "2023-02-29")]
    day: String,
    #[elicit(format = "date-time", default = "2024-01-01 12:00:00")]
    at: Option<String>,
}

fn main() {}
