//! The entries of one body as the writer leaves them ([`Flat`]): one buffer of
//! text and a span of it per entry, kept for the next body when small; their
//! sort and their join with `;`.

use std::cell::Cell;

use super::bound::try_room;
use crate::canonical::sort::{sort_spans, Key};
use crate::canonical::Order;
use crate::error::Result;

/// Every entry of a body written into one buffer, each a byte range of it:
/// one growing allocation instead of one per entry.
#[derive(Default)]
pub(crate) struct Flat {
    pub(crate) text: String,
    pub(crate) spans: Vec<(usize, usize)>,
}

thread_local! {
    /// The buffers of the last entries dropped, for the next body's (a few kilobytes at
    /// most are kept): two allocations less for each message.
    static SPARE: Cell<(String, Vec<(usize, usize)>)> = const { Cell::new((String::new(), Vec::new())) };
}

/// The most bytes of entries (and of spans) whose buffers are kept for the next body.
const SPARE_BYTES: usize = 16 << 10;

impl Flat {
    /// Empty entries, in the buffers of the last ones dropped when they were kept.
    pub(super) fn reused() -> Flat {
        let (mut text, mut spans) = SPARE.try_with(Cell::take).unwrap_or_default();
        text.clear();
        spans.clear();
        Flat { text, spans }
    }
}

impl Drop for Flat {
    fn drop(&mut self) {
        let spans_bytes = self.spans.capacity().saturating_mul(std::mem::size_of::<(usize, usize)>());
        if self.text.capacity() <= SPARE_BYTES && spans_bytes <= SPARE_BYTES {
            let buffers = (std::mem::take(&mut self.text), std::mem::take(&mut self.spans));
            // (After the thread's storage is gone, they are just freed.)
            let _ = SPARE.try_with(|spare| spare.set(buffers));
        }
    }
}

impl Flat {
    pub(crate) fn sort(&mut self, order: Order) {
        let key = match order {
            // UTF-8 byte order is code point order.
            Order::CodePoint => Key::CodePoint,
            Order::Utf16 => Key::Utf16,
        };
        sort_spans(self.text.as_bytes(), &mut self.spans, key);
    }

    pub(crate) fn entries(&self) -> impl Iterator<Item = &str> {
        self.spans.iter().map(|&(start, end)| &self.text[start..end])
    }

    /// The sorted entries joined with `;`.
    pub(crate) fn joined(&self) -> Result<String> {
        let mut joined = String::new();
        try_room(&mut joined, self.text.len() + self.spans.len())?;
        for (i, entry) in self.entries().enumerate() {
            if i > 0 {
                joined.push(';');
            }
            joined.push_str(entry);
        }
        Ok(joined)
    }
}
