#![no_main]
libfuzzer_sys::fuzz_target!(|data: &[u8]| mcp_typed_fuzz::checks::params_digest(data));
