// Reads pasted callback headers: a JSON object (or array of [name, value]
// pairs), `name: value` lines (as logged, or as curl `-H '…'` arguments),
// or a mix of both. Pure functions, no DOM and no wasm.

const SKIPPED_LINE = /^(?:[{}[\]],?|(?:GET|POST|PUT|PATCH|DELETE|HEAD|OPTIONS) \S+(?: HTTP\/[\d.]+)?|HTTP\/[\d.]+ .*)$/i;

function stripQuotes(text) {
  const t = text.trim();
  if (t.length >= 2 && (t[0] === '"' || t[0] === "'") && t.at(-1) === t[0]) {
    if (t[0] === '"') {
      try {
        return String(JSON.parse(t));
      } catch {
        // Not a JSON string literal: drop the quotes only.
      }
    }
    return t.slice(1, -1);
  }
  return t;
}

/** Pairs from a parsed JSON value: `{name: value | [values]}` or `[[name, value], …]`. */
function pairsFromJson(value) {
  if (Array.isArray(value)) {
    if (!value.every((p) => Array.isArray(p) && p.length === 2)) throw new Error('a JSON array must hold [name, value] pairs');
    return value.map(([n, v]) => [String(n), String(v)]);
  }
  if (value && typeof value === 'object') {
    const pairs = [];
    for (const [name, v] of Object.entries(value)) {
      for (const item of Array.isArray(v) ? v : [v]) pairs.push([name, item === null ? '' : String(item)]);
    }
    return pairs;
  }
  throw new Error('JSON headers must be an object');
}

/**
 * Header pairs from pasted text. Returns `{ pairs: [[name, value]], ignored: [line], error }`:
 * `ignored` lists lines that were not understood, `error` a JSON problem (or null).
 */
export function parseHeaderText(text) {
  const trimmed = text.trim();
  const out = { pairs: [], ignored: [], error: null };
  if (!trimmed) return out;
  if (trimmed[0] === '{' || trimmed[0] === '[') {
    try {
      out.pairs = pairsFromJson(JSON.parse(trimmed));
      return out;
    } catch (error) {
      if (!(error instanceof SyntaxError)) {
        out.error = error.message;
        return out;
      }
      // Not one JSON document: read it line by line below (JSON lines and `name: value` lines).
    }
  }
  for (const raw of trimmed.split(/\r?\n/)) {
    let line = raw.trim().replace(/\s*\\$/, '');
    if (!line) continue;
    if (line.startsWith('{') && line.endsWith('}')) {
      try {
        out.pairs.push(...pairsFromJson(JSON.parse(line)));
        continue;
      } catch {
        // Fall through: perhaps `{ "name": "value" }` pieces a line reader understands.
      }
    }
    const curlArgument = line.match(/^(?:-H|--header)\s+(.*)$/);
    if (curlArgument) line = stripQuotes(curlArgument[1]);
    line = line.replace(/,$/, '').trim();
    if (!line || SKIPPED_LINE.test(line)) continue;
    const quoted = line.match(/^"((?:[^"\\]|\\.)*)"\s*:\s*(.*)$/);
    const [name, value] = quoted ? [quoted[1], quoted[2]] : splitAtColon(line);
    if (!name || value === undefined) {
      out.ignored.push(raw.trim());
      continue;
    }
    out.pairs.push([name.trim(), stripQuotes(value)]);
  }
  return out;
}

function splitAtColon(line) {
  const at = line.indexOf(':');
  return at <= 0 ? [null, undefined] : [line.slice(0, at), line.slice(at + 1)];
}
