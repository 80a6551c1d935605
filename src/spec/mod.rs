//! The spec's tables as data: currencies and their minor-unit digits.

pub(crate) mod currency;
