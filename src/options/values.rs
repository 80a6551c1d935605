//! The core's value of each choice of a choice option ([`Typed`]), in the
//! order of its row's choices: the JS spelling of a value, the value of a
//! spelling, and the refusal naming the choices ([`bad_choice`]).

use super::table::{row, Choice};
use crate::canonical::{Booleans, Falsy, Numbers, Order};
use crate::error::Error;
use crate::hmac::SignatureEncoding;
use crate::rsa::keys::TokenEncoding;
use crate::rsa::pkcs1v15::Digest;

/// The core's values of a choice option, in the order of its row's choices.
pub(crate) struct Typed<T: 'static> {
    pub(crate) name: &'static str,
    pub(crate) values: &'static [T],
}

pub(crate) const FALSY: Typed<Falsy> = Typed { name: "falsy", values: &[Falsy::None, Falsy::Null] };
pub(crate) const BOOLEANS: Typed<Booleans> =
    Typed { name: "booleans", values: &[Booleans::Python, Booleans::Lower, Booleans::Digit] };
pub(crate) const ORDER: Typed<Order> = Typed { name: "order", values: &[Order::CodePoint, Order::Utf16] };
pub(crate) const NUMBERS: Typed<Numbers> = Typed { name: "numbers", values: &[Numbers::Python, Numbers::Js] };
pub(crate) const DIGEST: Typed<Digest> = Typed { name: "digest", values: &[Digest::Single, Digest::Double] };
pub(crate) const TOKEN: Typed<TokenEncoding> =
    Typed { name: "token", values: &[TokenEncoding::Pem, TokenEncoding::Der] };
pub(crate) const SIGNATURE_ENCODING: Typed<SignatureEncoding> =
    Typed { name: "signatureEncoding", values: &[SignatureEncoding::Base64Url, SignatureEncoding::Hex] };

impl<T: Copy + PartialEq> Typed<T> {
    fn choices(&self) -> &'static [Choice] {
        row(self.name).map_or(&[], |row| row.choices)
    }

    /// The JS spelling of `value`.
    pub(crate) fn spelling(&self, value: T) -> &'static str {
        let at = self.values.iter().position(|v| *v == value);
        at.and_then(|at| self.choices().get(at)).map_or("", |choice| choice.value)
    }

    /// The value spelled `text`, or `INVALID_OPTION` naming the choices.
    pub(crate) fn parse(&self, text: &str) -> Result<T, Error> {
        let at = self.choices().iter().position(|choice| choice.value == text);
        match at.and_then(|at| self.values.get(at)) {
            Some(value) => Ok(*value),
            None => Err(bad_choice(self.name, text)),
        }
    }
}

/// `INVALID_OPTION`: `value` is not one of the choices of option `name`.
pub(crate) fn bad_choice(name: &str, value: &str) -> Error {
    let allowed: Vec<&str> = row(name).map_or(&[][..], |row| row.choices).iter().map(|c| c.value).collect();
    Error::InvalidOption {
        name: name.into(),
        reason: format!("cannot be '{value}'; use one of {}", allowed.join(", ")),
    }
}
