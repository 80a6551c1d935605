//! The row kernels of [`Wide`](super::wide::Wide)'s product and squaring:
//! `add_row` (`t += a·b + m·n`) and `add_square_row` (a row of a squaring). In
//! wasm with SIMD128 they take four digits at a time with `u64x2_extmul` (the
//! only `unsafe` code of the arithmetic: unaligned `v128` loads and stores of
//! slices whose lengths are checked first); elsewhere a portable loop gives the
//! same columns, so the 28-bit path is tested natively too.

/// `t[j] += a * b[j] + m * n[j]` for every j (t, b and n of one length).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub(super) fn add_row(t: &mut [u64], b: &[u32], n: &[u32], a: u32, m: u32) {
    for ((t, &b), &n) in t.iter_mut().zip(b).zip(n) {
        *t += u64::from(a) * u64::from(b) + u64::from(m) * u64::from(n);
    }
}

/// `t[j] += a * b[j] + m * n[j]` for every j, four at a time (the length is a
/// multiple of 4): per four digits two loads, four `extmul`s and two 64-bit
/// column loads, adds and stores.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) fn add_row(t: &mut [u64], b: &[u32], n: &[u32], a: u32, m: u32) {
    use core::arch::wasm32::u32x4_splat;
    by_fours(t, b, n, (u32x4_splat(a), u32x4_splat(m)), add4);
}

/// `four(t, b, n, a, m)` over `t`, `b` and `n` four digits at a time, two
/// blocks a pass, then the blocks of four left (shorter slices are no block).
/// The splats `(a, m)` are made opaque in each pass: LLVM would otherwise
/// hoist their widening and emit i64x2.mul of widened lanes, which V8 lowers
/// to three multiplies.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn by_fours(
    t: &mut [u64],
    b: &[u32],
    n: &[u32],
    splats: (core::arch::wasm32::v128, core::arch::wasm32::v128),
    four: impl Fn(&mut [u64], &[u32], &[u32], core::arch::wasm32::v128, core::arch::wasm32::v128),
) {
    use core::arch::wasm32::v128;
    let mut t = t.chunks_exact_mut(8);
    let mut b = b.chunks_exact(8);
    let mut n = n.chunks_exact(8);
    for ((t, b), n) in (&mut t).zip(&mut b).zip(&mut n) {
        let (a, m): (v128, v128) = std::hint::black_box(splats);
        four(&mut t[..4], &b[..4], &n[..4], a, m);
        four(&mut t[4..], &b[4..], &n[4..], a, m);
    }
    let (a, m): (v128, v128) = std::hint::black_box(splats);
    four(t.into_remainder(), b.remainder(), n.remainder(), a, m);
}

/// `t[j] += a * b[j] + m * n[j]` for four j (or none, when the slices are shorter).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn add4(t: &mut [u64], b: &[u32], n: &[u32], a: core::arch::wasm32::v128, m: core::arch::wasm32::v128) {
    use core::arch::wasm32::{u64x2_add, u64x2_extmul_high_u32x4, u64x2_extmul_low_u32x4, v128, v128_load, v128_store};
    if t.len() < 4 || b.len() < 4 || n.len() < 4 {
        return;
    }
    // SAFETY: `b` and `n` hold at least 4 u32 (16 bytes, one v128) and `t` at
    // least 4 u64 (32 bytes, two v128), checked above; `v128_load` and
    // `v128_store` take unaligned addresses.
    unsafe {
        let b = v128_load(b.as_ptr().cast::<v128>());
        let n = v128_load(n.as_ptr().cast::<v128>());
        let t = t.as_mut_ptr().cast::<v128>();
        let low = u64x2_add(u64x2_extmul_low_u32x4(a, b), u64x2_extmul_low_u32x4(m, n));
        let high = u64x2_add(u64x2_extmul_high_u32x4(a, b), u64x2_extmul_high_u32x4(m, n));
        v128_store(t, u64x2_add(v128_load(t), low));
        v128_store(t.add(1), u64x2_add(v128_load(t.add(1)), high));
    }
}

/// Row i of [`Wide::sqr_into`]: `t[j] += m * n[j]` for every j, plus
/// `a[i] * a[i]` at j = i and `a[i] * 2a[j]` for every j > i (t, a and n of
/// one length, i below it).
#[cfg(not(all(target_arch = "wasm32", target_feature = "simd128")))]
pub(super) fn add_square_row(t: &mut [u64], a: &[u32], n: &[u32], i: usize, m: u32) {
    let ai = u64::from(a[i]);
    for (j, ((t, &aj), &n)) in t.iter_mut().zip(a).zip(n).enumerate() {
        let square = match j.cmp(&i) {
            std::cmp::Ordering::Less => 0,
            std::cmp::Ordering::Equal => ai * ai,
            std::cmp::Ordering::Greater => ai * (2 * u64::from(aj)),
        };
        *t += square + u64::from(m) * u64::from(n);
    }
}

/// Row i of [`Wide::sqr_into`] four digits at a time (the length is a multiple
/// of 4): `t[j] += m * n[j]` for every j, plus `a[i] * a[i]` at j = i and
/// `a[i] * 2a[j]` for every j > i. The blocks of four below the one holding
/// digit i take only `m * n` (two `extmul`s), that block takes its square
/// operand through lane masks made from i, and the blocks above take `2a[j]`
/// as `a[j]` shifted left by one (four `extmul`s, as in [`add_row`]). Where
/// the row splits depends on i alone, never on the digits.
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
pub(super) fn add_square_row(t: &mut [u64], a: &[u32], n: &[u32], i: usize, m: u32) {
    use core::arch::wasm32::{u32x4, u32x4_eq, u32x4_gt, u32x4_shl, u32x4_splat, v128, v128_and, v128_load, v128_or};
    let len = t.len().min(a.len()).min(n.len());
    let start = i / 4 * 4;
    if start + 4 > len {
        return;
    }
    let ai = a[i];
    let splats = (u32x4_splat(ai), u32x4_splat(m));
    let (low_t, rest_t) = t[..len].split_at_mut(start);
    let (block_t, high_t) = rest_t.split_at_mut(4);
    // Below the block of digit i: the reduction only (n stands in for the unread operand).
    let low_n = &n[..start];
    by_fours(low_t, low_n, low_n, splats, |t, _, n, _, m| add4_reduce(t, n, m));
    // The block of digit i: 0 below i, a[i] at i, 2a[j] above, chosen by lane
    // masks of the (public) positions.
    let (ai_splat, m): (v128, v128) = std::hint::black_box(splats);
    let first = start as u32;
    let lanes = u32x4(first, first + 1, first + 2, first + 3);
    let at = u32x4_splat(i as u32);
    let block_a = &a[start..start + 4];
    let block_n = &n[start..start + 4];
    // SAFETY: `block_a` holds exactly 4 u32 (16 bytes, one v128); `v128_load`
    // takes unaligned addresses.
    let doubled = u32x4_shl(unsafe { v128_load(block_a.as_ptr().cast::<v128>()) }, 1);
    let operand = v128_or(v128_and(doubled, u32x4_gt(lanes, at)), v128_and(ai_splat, u32x4_eq(lanes, at)));
    // SAFETY: `block_n` holds exactly 4 u32 (one v128), unaligned loads allowed.
    let block_n = unsafe { v128_load(block_n.as_ptr().cast::<v128>()) };
    add4_values(block_t, operand, block_n, ai_splat, m);
    // Above the block: a[i] * 2a[j] + m * n[j].
    by_fours(high_t, &a[start + 4..len], &n[start + 4..len], splats, add4_doubled);
}

/// `t[j] += m * n[j]` for four j (or none, when the slices are shorter).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn add4_reduce(t: &mut [u64], n: &[u32], m: core::arch::wasm32::v128) {
    use core::arch::wasm32::{u64x2_add, u64x2_extmul_high_u32x4, u64x2_extmul_low_u32x4, v128, v128_load, v128_store};
    if t.len() < 4 || n.len() < 4 {
        return;
    }
    // SAFETY: `n` holds at least 4 u32 (one v128) and `t` at least 4 u64 (two
    // v128), checked above; `v128_load` and `v128_store` take unaligned addresses.
    unsafe {
        let n = v128_load(n.as_ptr().cast::<v128>());
        let t = t.as_mut_ptr().cast::<v128>();
        v128_store(t, u64x2_add(v128_load(t), u64x2_extmul_low_u32x4(m, n)));
        v128_store(t.add(1), u64x2_add(v128_load(t.add(1)), u64x2_extmul_high_u32x4(m, n)));
    }
}

/// `t[j] += ai * 2a[j] + m * n[j]` for four j (or none, when the slices are shorter).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn add4_doubled(t: &mut [u64], a: &[u32], n: &[u32], ai: core::arch::wasm32::v128, m: core::arch::wasm32::v128) {
    use core::arch::wasm32::{u32x4_shl, v128, v128_load};
    if a.len() < 4 || n.len() < 4 {
        return;
    }
    // SAFETY: `a` and `n` hold at least 4 u32 (16 bytes, one v128 each),
    // checked above; `v128_load` takes unaligned addresses.
    let (a, n) = unsafe { (v128_load(a.as_ptr().cast::<v128>()), v128_load(n.as_ptr().cast::<v128>())) };
    add4_values(t, u32x4_shl(a, 1), n, ai, m);
}

/// `t[j] += a * b[j] + m * n[j]` for four j, with b and n already loaded (or
/// none, when `t` is shorter).
#[cfg(all(target_arch = "wasm32", target_feature = "simd128"))]
#[inline(always)]
fn add4_values(
    t: &mut [u64],
    b: core::arch::wasm32::v128,
    n: core::arch::wasm32::v128,
    a: core::arch::wasm32::v128,
    m: core::arch::wasm32::v128,
) {
    use core::arch::wasm32::{u64x2_add, u64x2_extmul_high_u32x4, u64x2_extmul_low_u32x4, v128, v128_load, v128_store};
    if t.len() < 4 {
        return;
    }
    // SAFETY: `t` holds at least 4 u64 (32 bytes, two v128), checked above;
    // `v128_load` and `v128_store` take unaligned addresses.
    unsafe {
        let t = t.as_mut_ptr().cast::<v128>();
        let low = u64x2_add(u64x2_extmul_low_u32x4(a, b), u64x2_extmul_low_u32x4(m, n));
        let high = u64x2_add(u64x2_extmul_high_u32x4(a, b), u64x2_extmul_high_u32x4(m, n));
        v128_store(t, u64x2_add(v128_load(t), low));
        v128_store(t.add(1), u64x2_add(v128_load(t.add(1)), high));
    }
}
