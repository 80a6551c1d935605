// Bodies shaped to cost the most per byte, shared by tests/js/hostile.test.mjs
// (the module must survive them at the largest maxBodyBytes) and scripts/bench.mjs
// (what they cost against a genuine callback).

/**
 * Bodies shaped to cost the most per byte, each just under `limit` bytes: many
 * tiny leaves, many members, a long key over many leaves (quadratic entries),
 * deep nesting, a long text, non-ASCII keys in UTF-16 order.
 */
export function hostileBodies(limit) {
  const fill = (make) => {
    let n = 16;
    while (Buffer.byteLength(make(n * 2)) < limit) n *= 2;
    let [low, high] = [n, n * 2];
    while (high - low > 1) {
      const mid = Math.floor((low + high) / 2);
      if (Buffer.byteLength(make(mid)) < limit) low = mid;
      else high = mid;
    }
    return make(low);
  };
  const leaves = fill((n) => `{"a":[${Array(n).fill('0').join(',')}]}`);
  const members = fill((n) => `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`);
  const longKey = fill((n) => `{"${'k'.repeat(n)}":[${Array(Math.max(1, Math.floor(n / 4))).fill('0').join(',')}]}`);
  const deep = fill((n) => `${'{"a":'.repeat(60)}[${Array(n).fill('"x"').join(',')}]${'}'.repeat(60)}`);
  const text = fill((n) => `{"a":"${'x;y:'.repeat(n)}"}`);
  const unicode = fill((n) => `{${Array.from({ length: n }, (_, i) => `"\u{1F600}${i}\uFF5E":"\u00e9"`).join(',')}}`);
  return [
    ['many tiny leaves', leaves],
    ['many members', members],
    ['long key over many leaves', longKey],
    ['60 levels deep', deep],
    ['one long text', text],
    ['non-ASCII keys', unicode],
    ['many tiny leaves, order utf16', leaves, { options: { order: 'utf16' } }],
    ['non-ASCII keys, order utf16', unicode, { options: { order: 'utf16' } }],
  ];
}

