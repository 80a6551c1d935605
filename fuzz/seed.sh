#!/usr/bin/env bash
# Seeds the fuzz corpora (fuzz/corpus/<target>/seed-*) from the test vectors
# and fixtures in tests/. Corpora are not committed; run this before fuzzing.
# Needs python3. Usage: fuzz/seed.sh [corpus-root]   (default fuzz/corpus)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="${1:-$here/corpus}"
mkdir -p "$root"/{canonical,callback,validate,keys}
python3 - "$here/.." "$root" <<'PY'
import base64, itertools, json, pathlib, re, sys

repo, root = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
vectors, fixtures = repo / "tests/vectors", repo / "tests/fixtures"
count = {}

def put(target, data):
    data = data.encode() if isinstance(data, str) else data
    n = count.get(target, 0)
    count[target] = n + 1
    (root / target / f"seed-{n:04}").write_bytes(data)

# The order of CanonicalOptions::all_variants(): the default first, then the rest.
default = ("codepoint", True, "none", "python")
variants = [default] + [v for v in itertools.product(
    ("codepoint", "utf16"), (True, False), ("none", "null"), ("python", "lower", "digit")) if v != default]

def variant_index(options):
    v = ("codepoint", options.get("padding", True), options.get("falsy", "none"), options.get("booleans", "python"))
    return variants.index(v)

def request(headers, body, variant=None):
    lines = [f"{k}: {v}" for k, v in headers.items()]
    if variant:
        lines.append(f"x-fuzz-variant: {variant}")
    return "\n".join(lines) + "\n\n" + body

bodies = []
canonical = json.loads((vectors / "canonical.json").read_text())
signatures = json.loads((vectors / "signatures.json").read_text())
callbacks = json.loads((vectors / "callbacks.json").read_text())
reference = json.loads((fixtures / "python_reference.json").read_text())
bodies += [c["body"] for c in canonical] + [c["body"] for c in signatures]
bodies += [c["body"] for c in callbacks["cases"]]
bodies += [c["body"] if isinstance(c["body"], str) else json.dumps(c["body"]) for c in reference["canonical"][:60]]
for body in dict.fromkeys(bodies):
    put("canonical", body)
    put("validate", body)

for case in callbacks["cases"]:
    put("callback", request(case["headers"], case["body"]))
for case in signatures:
    if case["key"] in ("keys/rsa2048.pkcs8.pem", "keys/rsa3072.pkcs8.pem"):
        put("callback", request(case["headers"], case["body"], variant_index(case["options"])))

labels = ["PRIVATE KEY", "RSA PRIVATE KEY", "PUBLIC KEY", "RSA PUBLIC KEY"]
for path in sorted(list((vectors / "keys").glob("*.pem")) + list((fixtures / "keys").glob("*.pem"))):
    text = path.read_text()
    put("keys", text)
    m = re.search(r"-----BEGIN ([A-Z ]+)-----\s*(.*?)-----END", text, re.S)
    if m and m.group(1) in labels and "Proc-Type" not in m.group(2):
        put("keys", bytes([labels.index(m.group(1))]) + base64.b64decode("".join(m.group(2).split())))

print(" ".join(f"{t}={n}" for t, n in sorted(count.items())))
PY
