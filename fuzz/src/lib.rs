//! The properties the fuzz targets check (see `checks`).
pub mod checks;
