#!/usr/bin/env python3
"""Independent Python reference for the sender dialects of
tests/vectors/dialects.json (falsy, booleans, numbers, order, padding, RSA
digest and token, HMAC-SHA512). Nothing here comes from the Rust code.

1. Recomputes every shared vector in tests/vectors/dialects.json; any
   mismatch is printed and the script exits 1 before writing anything.
2. Writes tests/fixtures/dialects_reference.json: our own vectors, in the
   same shape. The output is deterministic (PKCS#1 v1.5 has no randomness).

Run: python3 scripts/dialects_reference.py
"""
import base64
import hashlib
import hmac
import json
import sys
from pathlib import Path

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding as rsa_padding

ROOT = Path(__file__).resolve().parent.parent
VECTORS = ROOT / "tests" / "vectors"
SHARED = VECTORS / "dialects.json"
OUT = ROOT / "tests" / "fixtures" / "dialects_reference.json"

TIMESTAMP = "1700000000"
MERCHANT = "merchant-1"
DEFAULTS = {"falsy": "none", "booleans": "python", "padding": True, "numbers": "python", "order": "codepoint"}


# ---------------------------------------------------------------- numbers

def shortest_digits(x):
    """(digits, n) for a finite x > 0: x = 0.d1d2..dk * 10**n with the
    shortest round-trip digits (Python's repr finds the same ones as JS)."""
    text = repr(x)
    mantissa, _, exp = text.partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = whole + frac
    n = len(whole) + (int(exp) if exp else 0)
    stripped = digits.lstrip("0")
    n -= len(digits) - len(stripped)
    digits = stripped.rstrip("0") or "0"
    return digits, n


def js_number(x):
    """ECMAScript Number::toString(x) for a finite double."""
    if x == 0:
        return "0"  # also -0
    if x < 0:
        return "-" + js_number(-x)
    digits, n = shortest_digits(x)
    k = len(digits)
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    e = n - 1
    sign = "+" if e >= 0 else "-"
    head = digits[0] if k == 1 else digits[0] + "." + digits[1:]
    return f"{head}e{sign}{abs(e)}"


# ---------------------------------------------------------------- message

def leaf_text(value, opts):
    if value is None:
        return "None"
    if opts["falsy"] == "none" and not value:
        return "None"  # Python truthiness: false, 0, 0.0, -0.0, ""
    if isinstance(value, bool):  # before numbers: bool is an int in Python
        return {"python": str(value), "lower": str(value).lower(), "digit": str(int(value))}[opts["booleans"]]
    if isinstance(value, (int, float)):
        if opts["numbers"] == "js":
            return js_number(float(value))  # JSON.parse gives a double, even for integers
        return str(value) if isinstance(value, int) else repr(value)
    if isinstance(value, str):
        return value
    raise TypeError(f"unexpected leaf {value!r}")


def flatten(value, path, opts, out):
    if isinstance(value, dict):
        items = value.items()
    elif isinstance(value, list):
        items = ((str(i), child) for i, child in enumerate(value))
    else:
        out.append(f"{path}:{leaf_text(value, opts)}")
        return
    for key, child in items:
        flatten(child, f"{path}:{key}" if path else key, opts, out)


def b64url(data, pad):
    text = base64.urlsafe_b64encode(data).decode("ascii")
    return text if pad else text.rstrip("=")


def build_message(body_text, timestamp, opts):
    body = json.loads(body_text) if body_text else {}
    entries = []
    flatten(body, "", opts, entries)
    if opts["order"] == "utf16":
        entries.sort(key=lambda e: e.encode("utf-16-be"))  # byte order here = code unit order
    else:
        entries.sort()
    joined = ";".join(entries).encode("utf-8")
    return entries, b64url(joined, opts["padding"]) + timestamp


# ---------------------------------------------------------------- signing

_keys = {}


def load_key(rel):
    if rel not in _keys:
        pem = (VECTORS / rel).read_bytes()
        _keys[rel] = serialization.load_pem_private_key(pem, password=None)
    return _keys[rel]


def rsa_headers(key_rel, body_text, opts, merchant_id, timestamp=TIMESTAMP):
    key = load_key(key_rel)
    _, message = build_message(body_text, timestamp, opts)
    data = message.encode("utf-8")
    if opts["digest"] == "double":
        data = hashlib.sha256(data).digest()  # the signer hashes this digest again
    signature = key.sign(data, rsa_padding.PKCS1v15(), hashes.SHA256())
    encoding = serialization.Encoding.PEM if opts["token"] == "pem" else serialization.Encoding.DER
    public = key.public_key().public_bytes(encoding, serialization.PublicFormat.SubjectPublicKeyInfo)
    return {
        "x-access-timestamp": timestamp,
        "x-access-merchant-id": merchant_id,
        "x-access-signature": b64url(signature, opts["padding"]),
        "x-access-token": b64url(public, opts["padding"]),
    }


def hmac_signature(secret, body_text, timestamp, opts):
    _, message = build_message(body_text, timestamp, opts)
    mac = hmac.new(secret.encode("utf-8"), message.encode("utf-8"), hashlib.sha512).digest()
    return mac.hex() if opts["signatureEncoding"] == "hex" else b64url(mac, opts["padding"])


# ---------------------------------------------------------------- step 1

def reproduce(shared):
    failures = []
    for case in shared["messages"]:
        entries, message = build_message(case["body"], case["timestamp"], case["options"])
        if entries != case["entries"] or message != case["message"]:
            failures.append(("messages", case["name"], {"entries": entries, "message": message}))
    for case in shared["rsa"]:
        headers = rsa_headers(case["key"], case["body"], case["options"], case["merchant_id"])
        for name, want in case["headers"].items():
            if headers.get(name) != want:
                failures.append(("rsa", case["name"], {name: headers.get(name)}))
        if set(headers) != set(case["headers"]):
            failures.append(("rsa", case["name"], {"header names": sorted(headers)}))
    for case in shared["hmac"]:
        got = hmac_signature(case["secret"], case["body"], case["timestamp"], case["options"])
        if got != case["signature"]:
            failures.append(("hmac", case["name"], {"signature": got}))
    counts = {kind: len(shared[kind]) for kind in ("messages", "rsa", "hmac")}
    return failures, counts


# ---------------------------------------------------------------- step 2

def profile(**changes):
    opts = dict(DEFAULTS)
    opts.update(changes)
    return opts


PROFILES = {
    "spec": profile(),
    "null falsy": profile(falsy="null"),
    "js numbers": profile(numbers="js"),
    "js numbers, null falsy": profile(numbers="js", falsy="null"),
    "utf16 order": profile(order="utf16"),
    "docs callback booleans": profile(booleans="digit"),
    "no padding": profile(padding=False),
    "public js client": profile(falsy="null", booleans="lower", padding=False, numbers="js", order="utf16"),
}

# Bodies are JSON text written by hand, so literal forms (1.0, 1E21, 20-digit integers) survive.
NUMBER_BODIES = {
    "numbers / forms": '{"a":1.0,"b":1e21,"c":1E21,"d":1e-7,"e":-1e-7,"f":0.000001,"g":0.1,'
                       '"h":-0.0,"i":0,"j":100,"k":2.5e-5,"l":1e20}',
    "numbers / big integers": '{"a":12345678901234567890,"b":99999999999999999999,"c":-12345678901234567890,'
                              '"d":9007199254740993,"e":123456789012345678,"f":100000000000000000000,'
                              '"g":1000000000000000000000}',
    "numbers / extremes": '{"a":123e-20,"b":1.5e300,"c":5e-324,"d":1.7976931348623157e308,"e":9.999999999999999e20,'
                          '"f":1.5e-7,"g":0.0000015,"h":1e-6,"i":-2.5e-5,"j":[0.0,-0,1.10,3.14159,1e+2]}',
}

# Keys mixing astral characters (surrogate pairs in UTF-16) with BMP characters above them.
ORDER_BODIES = {
    "order / top level": '{"k\\ud83d\\ude00":"astral","k\\uff5e":"tilde","k\\ue000":"private","k\\ufffd":"replacement",'
                         '"k\\ud835\\udd38":"double-struck A","k":"plain"}',
    "order / nested": '{"a":{"\\ud83d\\ude00":1,"\\uff5e":2,"b":{"\\ud835\\udd38x":"s","\\ufffdx":"r","\\ue000x":"p"}},'
                      '"\\ud835\\udd38":{"deep":{"\\ud83d\\ude00\\ud83d\\ude00":true,"\\uffff":false}},'
                      '"\\ufffd":[{"\\ud83d\\ude00":"x","\\ue000":"y"}]}',
    "order / shared prefix": '{"item":["\\ud83d\\ude00",{"\\uff5eend":0,"\\ud83d\\ude00end":""}],'
                             '"item\\ue000":"pua","item\\ud83d\\ude00":"grin","item\\uff5e":null}',
}

BOOLEAN_BODY = '{"flag":true,"off":false,"list":[true,false,null,0,""],"nested":{"yes":true,"no":false},"text":"True"}'

# Joined UTF-8 length mod 3 = 0, 1 and 2 (asserted below).
PADDING_BODIES = {
    "padding / joined mod 3 = 0": '{"id":"u-7"}',
    "padding / joined mod 3 = 1": '{"name":"\\u0416"}',
    "padding / joined mod 3 = 2": '{"city":"\\u0410\\u043b\\u043c\\u0430\\u0442\\u044b"}',
}

PAYIN = ('{"general":{"project_id":"prj_31ab","payment_id":"inv-2024-0007","merchant_callback_url":'
         '"https://shop.example/cb"},"payment":{"method":"payin-p2p-card","amount":250000,"currency":"KZT",'
         '"lifetime":900,"description":"Заказ №7 — 2 шт."},"sender":{"bank_symbol":""},'
         '"customer":{"id":"u-88","ip_address":"198.51.100.4","country":"KZ","language":"ru","email":null}}')

# A realistic callback: nulls, false, 0, "", floats, non-ASCII text and nested arrays.
CALLBACK = ('{"status":"processing","sub_status":"awaiting_confirm","status_description":null,'
            '"request_id":"req_9c1e","project_id":"prj_31ab","payment_id":"inv-2024-0007",'
            '"payment_info":{"amount":250000,"old_amount":250000,"initial_amount":250000,"currency":"KZT",'
            '"lifetime":900,"expiration_date":1700000900,"updated_date":1700000012,"created_date":1700000000,'
            '"method":"payin-p2p-card","type":"payin","payment_system":null,"rate":471.35,"fee":0.0,'
            '"discount":0,"test":false},'
            '"recipient_requisites":{"pan":"4400 43** **** 1234","bank_name":"Kaspi Bank",'
            '"card_holder":"АЙГҮЛ Ж.","phone":""},'
            '"display_data":{"steps":["Откройте приложение","Переведите 2 500,00 ₸ 😀"],'
            '"amounts":[2500.0,2500.5,1e-7],"confirmed":true},'
            '"integration":{"form_url":"https://pay.example/f/9c1e","redirect_url":null}}')

SECRETS = [
    "test-only-hmac-secret-ascii-0123456789",
    "тестовый-секрет-hmac-ключ-😀-2024",
]


def message_case(name, body, opts, timestamp=TIMESTAMP):
    entries, message = build_message(body, timestamp, opts)
    return {"name": name, "body": body, "timestamp": timestamp, "options": dict(opts),
            "entries": entries, "message": message}


def own_messages():
    cases = []
    for body_name, body in NUMBER_BODIES.items():
        for prof in ("spec", "null falsy", "js numbers", "js numbers, null falsy"):
            cases.append(message_case(f"{body_name} / {prof}", body, PROFILES[prof]))
    for body_name, body in ORDER_BODIES.items():
        for prof in ("spec", "utf16 order", "public js client"):
            cases.append(message_case(f"{body_name} / {prof}", body, PROFILES[prof]))
    for booleans in ("python", "lower", "digit"):
        for falsy in ("none", "null"):
            opts = profile(booleans=booleans, falsy=falsy)
            cases.append(message_case(f"booleans / {booleans}, falsy {falsy}", BOOLEAN_BODY, opts))
    for body_name, body in PADDING_BODIES.items():
        want = int(body_name[-1])
        entries, _ = build_message(body, TIMESTAMP, PROFILES["spec"])
        assert len(";".join(entries).encode("utf-8")) % 3 == want, body_name
        for prof in ("spec", "no padding"):
            cases.append(message_case(f"{body_name} / {prof}", body, PROFILES[prof]))
    for prof in ("spec", "public js client"):
        cases.append(message_case(f"empty body / {prof}", "", PROFILES[prof]))
        cases.append(message_case(f"empty object / {prof}", "{}", PROFILES[prof], "1700000123"))
    for body_name, body in (("payin", PAYIN), ("callback", CALLBACK)):
        for prof in ("spec", "null falsy", "js numbers", "utf16 order", "docs callback booleans", "public js client"):
            cases.append(message_case(f"{body_name} / {prof}", body, PROFILES[prof]))
    return cases


def rsa_case(name, key_rel, body, opts):
    return {"name": name, "key": key_rel, "body": body, "options": dict(opts), "merchant_id": MERCHANT,
            "headers": rsa_headers(key_rel, body, opts, MERCHANT)}


def own_rsa():
    cases = []
    keys = ["keys/rsa2048.pkcs8.pem", "keys/rsa3072.pkcs8.pem", "keys/rsa4096.pkcs8.pem"]
    for digest in ("single", "double"):
        for token in ("pem", "der"):
            for key in keys:
                opts = dict(PROFILES["spec"], digest=digest, token=token)
                cases.append(rsa_case(f"payin / {digest} digest, {token} token / {key}", key, PAYIN, opts))
    js = dict(PROFILES["public js client"], digest="double", token="der")
    for key in keys + ["keys/rsa3072.pkcs1.pem"]:
        cases.append(rsa_case(f"callback / public js client / {key}", key, CALLBACK, js))
    for key in ("keys/rsa2048.pkcs1.pem", "keys/rsa4096.pkcs1.pem"):
        cases.append(rsa_case(f"numbers / public js client / {key}", key, NUMBER_BODIES["numbers / forms"], js))
    for key in keys:  # padding false also strips the token's and the signature's '='
        opts = dict(PROFILES["no padding"], digest="single", token="pem")
        cases.append(rsa_case(f"callback / no padding, pem token / {key}", key, CALLBACK, opts))
    opts = dict(PROFILES["utf16 order"], digest="double", token="pem")
    cases.append(rsa_case("order / utf16 order, double digest / keys/rsa3072.pkcs8.pem",
                          "keys/rsa3072.pkcs8.pem", ORDER_BODIES["order / nested"], opts))
    opts = dict(PROFILES["docs callback booleans"], digest="single", token="der")
    cases.append(rsa_case("booleans / docs callback booleans, der token / keys/rsa3072.pkcs1.pem",
                          "keys/rsa3072.pkcs1.pem", BOOLEAN_BODY, opts))
    return cases


def own_hmac():
    cases = []
    plans = [
        ("payin", PAYIN, "spec", "base64url"),
        ("payin", PAYIN, "no padding", "base64url"),
        ("callback", CALLBACK, "public js client", "base64url"),
        ("callback", CALLBACK, "spec", "hex"),
        ("callback", CALLBACK, "public js client", "hex"),
        ("numbers", NUMBER_BODIES["numbers / extremes"], "js numbers", "base64url"),
        ("order", ORDER_BODIES["order / nested"], "utf16 order", "hex"),
        ("booleans", BOOLEAN_BODY, "docs callback booleans", "base64url"),
        ("empty body", "", "spec", "hex"),
    ]
    for index, secret in enumerate(SECRETS):
        assert len(secret.encode("utf-8")) >= 32
        label = "ascii secret" if index == 0 else "utf-8 secret"
        for body_name, body, prof, encoding in plans:
            opts = dict(PROFILES[prof], signatureEncoding=encoding)
            cases.append({"name": f"{body_name} / {prof} / hmac {encoding} / {label}", "secret": secret,
                          "body": body, "options": opts, "merchant_id": MERCHANT, "timestamp": TIMESTAMP,
                          "signature": hmac_signature(secret, body, TIMESTAMP, opts)})
    return cases


def main():
    shared = json.loads(SHARED.read_text(encoding="utf-8"))
    failures, counts = reproduce(shared)
    for kind, name, got in failures:
        print(f"MISMATCH {kind}: {name}: we compute {json.dumps(got, ensure_ascii=False)}", file=sys.stderr)
    if failures:
        print(f"{len(failures)} mismatches with {SHARED}; nothing written", file=sys.stderr)
        sys.exit(1)
    print("reproduced tests/vectors/dialects.json: " + ", ".join(f"{n} {k}" for k, n in counts.items()))

    out = {
        "about": "scripts/dialects_reference.py: our own sender-dialect vectors (numbers, order, booleans, "
                 "falsy, padding, RSA digest and token, HMAC), same shape as tests/vectors/dialects.json.",
        "messages": own_messages(),
        "rsa": own_rsa(),
        "hmac": own_hmac(),
    }
    names = [c["name"] for kind in ("messages", "rsa", "hmac") for c in out[kind]]
    assert len(names) == len(set(names)), "duplicate case names"
    OUT.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}: " + ", ".join(f"{len(out[k])} {k}" for k in ("messages", "rsa", "hmac")))


if __name__ == "__main__":
    main()
