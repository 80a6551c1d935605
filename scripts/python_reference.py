#!/usr/bin/env python3
"""Writes tests/fixtures/python_reference.json: random bodies and the canonical
form a Python sender computes for them, with Python's own json, str, repr and
sorted. This is the oracle for our default ("the spec read with its Python
origin"); it is independent of the Rust code. Deterministic (seeded).

Run: python3 scripts/python_reference.py
"""
import base64
import json
import random
import struct
from pathlib import Path

SEED = 20261121
rng = random.Random(SEED)

ALPHABET = ["a", "b", "z", "A", "_", "0", "9", ":", ";", "-", " ", "é", "Ж", "中", "～", "😀", "\u00a0", "'", "\"", "\\", "\n"]


def leaf_python(value):
    """Spec step 1 with Python truthiness: falsy leaves are written None."""
    if not value:
        return "None"
    return str(value)  # True, ints exactly, floats by repr, text as is


def flatten(value, path, out):
    if isinstance(value, dict):
        for key, child in value.items():
            flatten(child, f"{path}:{key}" if path else key, out)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            flatten(child, f"{path}:{index}" if path else str(index), out)
    else:
        out.append(f"{path}:{leaf_python(value)}")


def message(body_text, timestamp):
    body = json.loads(body_text) if body_text else {}
    entries = []
    flatten(body, "", entries)
    entries.sort()
    joined = ";".join(entries)
    encoded = base64.urlsafe_b64encode(joined.encode("utf-8")).decode("ascii")
    return entries, encoded + timestamp


def random_text(max_len=6):
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, max_len)))


def random_float():
    kind = rng.randint(0, 5)
    if kind == 0:
        return struct.unpack("<d", struct.pack("<Q", rng.getrandbits(64)))[0]
    if kind == 1:
        return rng.uniform(-1e6, 1e6)
    if kind == 2:
        return rng.choice([0.0, -0.0, 1.0, 0.1, 1e16, 1e15, 1e-5, 1e-4, 123.456, 5e-324, 1.7976931348623157e308])
    if kind == 3:
        return float(rng.randint(-10**17, 10**17))
    if kind == 4:
        return rng.random() * 10 ** rng.randint(-30, 30)
    return round(rng.uniform(-1000, 1000), rng.randint(0, 6))


def random_leaf():
    kind = rng.randint(0, 6)
    if kind == 0:
        return None
    if kind == 1:
        return rng.choice([True, False])
    if kind == 2:
        return rng.choice([0, 1, -1, 150000, 10**13, rng.randint(-10**30, 10**30)])
    if kind == 3:
        value = random_float()
        return value if value == value and abs(value) != float("inf") else 1.5
    return random_text()


def random_value(depth):
    if depth >= 4 or rng.random() < 0.5:
        return random_leaf()
    if rng.random() < 0.5:
        return [random_value(depth + 1) for _ in range(rng.randint(0, 4))]
    return {random_text(4) or "k": random_value(depth + 1) for _ in range(rng.randint(0, 4))}


def main():
    cases = []
    floats = []
    for i in range(300):
        body = {random_text(4) or f"k{i}": random_value(1) for _ in range(rng.randint(0, 6))}
        text = json.dumps(body, ensure_ascii=rng.random() < 0.5)
        timestamp = str(rng.randint(0, 2**32))
        entries, msg = message(text, timestamp)
        cases.append({"body": text, "timestamp": timestamp, "entries": entries, "message": msg})
    for _ in range(2000):
        value = random_float()
        if value == value and abs(value) != float("inf"):
            # Written differently from repr, so the test must really reformat.
            style = rng.choice([".17g", ".17e", ".20E", ".25f"])
            text = format(value, style)
            if "." not in text and "e" not in text.lower():
                text += ".0"
            if json.loads(text) == value:
                floats.append({"json": text, "repr": repr(value)})
    out = {"generator": "scripts/python_reference.py", "seed": SEED, "canonical": cases, "float_repr": floats}
    path = Path(__file__).resolve().parent.parent / "tests" / "fixtures" / "python_reference.json"
    path.write_text(json.dumps(out, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    print(f"wrote {path}: {len(cases)} bodies, {len(floats)} floats")


if __name__ == "__main__":
    main()
