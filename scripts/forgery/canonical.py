"""The canonical form, written independently (spec steps 1 to 5, Python origin):
Python's json, str/repr, truthiness and code-point sort; no Rust or JS of the
repository is used. And the fix's ambiguity rule, to label genuine bodies (the
test checks the package's own)."""
import base64
import json

class DuplicateKey(Exception):
    pass


def _pairs(pairs):
    out = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def parse(text):
    """JSON text -> Python value; duplicate keys refused (the package refuses them too)."""
    return json.loads(text, object_pairs_hook=_pairs) if text else {}


def leaf_text(value):
    """Step 1: falsy leaves (None, "", 0, 0.0, False) are `None`; the rest str() (repr for floats)."""
    if not value:
        return "None"
    return str(value)


def flatten(value, path, out):
    if isinstance(value, dict):
        for key, child in value.items():
            flatten(child, f"{path}:{key}" if path else key, out)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            flatten(child, f"{path}:{index}" if path else str(index), out)
    else:
        out.append(f"{path}:{leaf_text(value)}")


def joined_of(body_text):
    entries = []
    flatten(parse(body_text), "", entries)
    entries.sort()  # Python str order = code point order
    return ";".join(entries)


def b64url(data, pad=True):
    text = base64.urlsafe_b64encode(data).decode("ascii")
    return text if pad else text.rstrip("=")


def message_of(body_text, timestamp, pad=True):
    return b64url(joined_of(body_text).encode("utf-8"), pad) + timestamp


def dumps(value):
    return json.dumps(value, ensure_ascii=False)


def value_is_ambiguous(text):
    parts = text.split(";")
    return any(":" in part for part in parts[1:])


def ambiguities(value, path=""):
    found = []
    if isinstance(value, dict):
        for key, child in value.items():
            here = f"{path}.{key}" if path else key
            if ":" in key or ";" in key:
                found.append((here, "KEY_SEPARATOR"))
            found += ambiguities(child, here)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            found += ambiguities(child, f"{path}[{index}]")
    elif isinstance(value, str) and value_is_ambiguous(value):
        found.append((path, "VALUE_ENTRY_TEXT"))
    return found
