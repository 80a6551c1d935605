//! Outgoing requests: building request bodies from typed input and signing a
//! body into the four `x-access-*` headers.

pub(crate) mod builders;
pub(crate) mod fields;
pub(crate) mod signing;
