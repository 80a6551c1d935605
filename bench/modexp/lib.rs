//! Modular exponentiation of our modmath, num-bigint-dig and crypto-bigint
//! (BoxedMontyForm) in wasm32, exported without wasm-bindgen; bench/modexp/run.mjs times them.
#![allow(dead_code, unused_imports)]
#[path = "../../src/rsa/hazmat/mod.rs"]
mod modmath; // src/rsa/hazmat/

use crypto_bigint::modular::{BoxedMontyForm, BoxedMontyParams};
use crypto_bigint::{BoxedUint, Odd};
use rsa::BigUint;

fn bytes(len: usize, seed: u8) -> Vec<u8> {
    let mut out: Vec<u8> = (0..len).map(|i| (i as u8).wrapping_mul(37).wrapping_add(seed)).collect();
    out[0] |= 0x80;
    let last = out.len() - 1;
    out[last] |= 1;
    out
}

/// kind 0: 2048-bit modulus, e = 65537; kind 1: 1024-bit modulus, 1024-bit exponent.
fn inputs(kind: u32) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
    if kind == 0 {
        (bytes(256, 3), bytes(255, 9), vec![1, 0, 1])
    } else {
        (bytes(128, 5), bytes(127, 11), bytes(128, 17))
    }
}

#[no_mangle]
pub extern "C" fn nb(kind: u32, iterations: u32) -> u32 {
    let (n, b, e) = inputs(kind);
    let (n, b, e) = (BigUint::from_bytes_be(&n), BigUint::from_bytes_be(&b), BigUint::from_bytes_be(&e));
    let mut acc = 0u32;
    for _ in 0..iterations {
        acc = acc.wrapping_add(b.modpow(&e, &n).to_bytes_be()[5] as u32);
    }
    acc
}

#[no_mangle]
pub extern "C" fn mm(kind: u32, iterations: u32) -> u32 {
    let (n, b, e) = inputs(kind);
    let (n, b, e) = (BigUint::from_bytes_be(&n), BigUint::from_bytes_be(&b), BigUint::from_bytes_be(&e));
    let m = modmath::Modulus::new(&n).unwrap();
    let base = modmath::limbs(&b, m.limb_count());
    let mut acc = 0u32;
    for _ in 0..iterations {
        let r = if kind == 0 {
            m.pow_public(&base, 65537)
        } else {
            m.pow_secret(&base, &modmath::limbs(&e, m.limb_count()))
        };
        acc = acc.wrapping_add(r[3]);
    }
    acc
}

#[no_mangle]
pub extern "C" fn cb(kind: u32, iterations: u32) -> u32 {
    let (n, b, e) = inputs(kind);
    let bits = (n.len() * 8) as u32;
    let n = BoxedUint::from_be_slice(&n, bits).unwrap();
    let params = BoxedMontyParams::new(Odd::new(n).unwrap());
    let base = BoxedMontyForm::new(BoxedUint::from_be_slice(&b, bits).unwrap(), &params);
    let e_bits = (e.len() * 8) as u32;
    let e = BoxedUint::from_be_slice(&e, e_bits).unwrap();
    let mut acc = 0u32;
    for _ in 0..iterations {
        let r = if kind == 0 { base.pow_bounded_exp(&e, 17) } else { base.pow(&e) };
        acc = acc.wrapping_add(r.retrieve().to_be_bytes()[5] as u32);
    }
    acc
}
