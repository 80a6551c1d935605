//! The spec's tables as data, one file per table, each citing the section of
//! the interface specification it copies:
//!
//! - `operations`: the operation index ("Endpoints", "Operation index");
//! - `availability`: methods by country and integration ("What the service
//!   does", "Availability by country"; "Resources and their fields", the
//!   method tables);
//! - `states`: the states table and its final states ("States and transitions");
//! - `decline_reasons`: the listed `status_description` values ("Errors");
//! - `currency`: fraction digits by currency ("Amounts and currency codes");
//! - `headers`: the four `x-access-*` header names ("Authentication");
//! - `limits`: the Limits table as data (every field it names, wherever it
//!   appears), amounts, lifetimes, merchant ids ("Limits").
//!
//! The code that checks or reads things (`validate/`, `callback/`,
//! `request/`) takes these tables from here and holds none of its own.
//! Where the spec's text is at hand (`../shared/spec/interface.md` beside the
//! repository, or the file `PAYMENT_INTAKE_SPEC` names), the unit tests read
//! each table back out of it and compare.

pub(crate) mod availability;
pub(crate) mod currency;
pub(crate) mod decline_reasons;
pub(crate) mod headers;
pub(crate) mod limits;
pub(crate) mod operations;
pub(crate) mod states;

#[cfg(test)]
pub(crate) mod spec_text;
