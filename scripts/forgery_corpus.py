#!/usr/bin/env python3
"""Writes tests/fixtures/forgeries.json: genuine signed callbacks and forged
bodies (and headers) that keep the genuine signature valid, for
tests/js/forgeries.test.mjs.

The spec's signed message (interface.md, Authentication) does not determine
the body: keys may contain ':', values ':' and ';', several values all write
`None`, empty containers write nothing, and the base64 text and the timestamp
have no separator. Every forgery here is checked IN PYTHON, with this file's
own canonicalizer (Python's json, str/repr, truthiness and code-point sort; no
Rust or JS of the repository is used), to have exactly the message of its
genuine callback; candidates that do not are discarded. Deterministic (seeded).

Attack classes (the `attack` of a forgery is `<class>/<detail>`):
  forged-success   attacker text with ';' moved into real members, a catch-all
                   member (value or key) swallowing the rest of the message
  resplit          attacker text ';…:' split into members with no catch-all
                   (the forgery itself is unambiguous)
  replay           new idempotency keys: sub_status None equivalents, a member
                   swallowing the one after it
  malleability     no attacker text: null-ing/garbling fields, {"0": …} for an
                   array, "a:b" keys for nesting, "5000" for 5000, empty {} / []
  generic          random re-splits of the joined text at ';' and ':', None
                   swaps, digit strings <-> numbers, added empty containers
  timestamp        base64/timestamp boundary moved (unpadded, padded)
  empty-key        members moved under a root key "" (the Python sender writes no
                   separator after an empty path, so they write the same entries)

Run: python3 scripts/forgery_corpus.py
"""
import base64
import copy
import json
import random
import re
from pathlib import Path

from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding as rsa_padding

SEED = 20261124
ROOT = Path(__file__).resolve().parent.parent
KEYS = ROOT / "tests" / "vectors" / "keys"
OUT = ROOT / "tests" / "fixtures" / "forgeries.json"
# tests/vectors/callbacks.json: verifying_key keys/rsa2048.public.pem; its
# private half signs the callbacks (the vectors' signatures.json use rsa2048.pkcs8.pem).
PRIVATE_KEY_FILE = KEYS / "rsa2048.pkcs8.pem"
PUBLIC_KEY_FILE = KEYS / "rsa2048.public.pem"
MERCHANT_ID = "merchant-1"
GENERIC_PER_CASE = 4
GENERIC_ATTEMPTS = 4000
MALLEABILITY_PER_CASE = 18
REPLAYS_PER_OTHER_CASE = 8
PRIORITY = r'\{"0"|status:status|payment_info:amount|"\d+" in place|swallows|several places|payment_id|data split|confirm|in place of no member|as an integer|in place of "'
MAX_BYTES = 1_000_000

rng = random.Random(SEED)

# ---------------------------------------------------------------------------
# The canonical form, written independently (spec steps 1 to 5, Python origin)
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# The fix's ambiguity rule (to label genuine bodies; the test checks the package)
# ---------------------------------------------------------------------------


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


# ---------------------------------------------------------------------------
# Signing
# ---------------------------------------------------------------------------

PRIVATE_KEY = serialization.load_pem_private_key(PRIVATE_KEY_FILE.read_bytes(), password=None)
PUBLIC_PEM_BYTES = PUBLIC_KEY_FILE.read_bytes()
assert PRIVATE_KEY.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
) == PUBLIC_PEM_BYTES, "rsa2048.pkcs8.pem is the private half of rsa2048.public.pem"


def sign(body_text, timestamp, pad=True):
    message = message_of(body_text, timestamp, pad)
    signature = PRIVATE_KEY.sign(message.encode("utf-8"), rsa_padding.PKCS1v15(), hashes.SHA256())
    headers = {
        "x-access-timestamp": timestamp,
        "x-access-merchant-id": MERCHANT_ID,
        "x-access-signature": b64url(signature, pad),
        "x-access-token": b64url(PUBLIC_PEM_BYTES, pad),
    }
    PRIVATE_KEY.public_key().verify(signature, message.encode("utf-8"), rsa_padding.PKCS1v15(), hashes.SHA256())
    return message, headers


# ---------------------------------------------------------------------------
# Structured entries: (keys, value) with keys a tuple of (segment, is_index).
# A value EMPTY_OBJ / EMPTY_ARR is a container that writes nothing.
# ---------------------------------------------------------------------------

EMPTY_OBJ = ("<empty>", "{}")
EMPTY_ARR = ("<empty>", "[]")
EMPTIES = (EMPTY_OBJ, EMPTY_ARR)


def struct_entries(value, keys=(), out=None):
    out = [] if out is None else out
    if isinstance(value, dict):
        for key, child in value.items():
            struct_entries(child, keys + ((key, False),), out)
    elif isinstance(value, list):
        for index, child in enumerate(value):
            struct_entries(child, keys + ((str(index), True),), out)
    else:
        out.append((keys, value))
    return out


def entry_text(entry):
    keys, value = entry
    return ":".join(k for k, _ in keys) + ":" + leaf_text(value)


def sorted_entries(value):
    return sorted(struct_entries(value), key=entry_text)


class _Arr(dict):
    pass


_MISSING = object()


def build(entries):
    """A JSON value for structured entries, or None when they do not form a tree."""
    root = {}
    for keys, value in entries:
        if not keys or keys[0][1]:
            return None
        node = root
        for depth, (segment, is_index) in enumerate(keys):
            if segment == "":
                return None
            if is_index:
                if not re.fullmatch(r"0|[1-9][0-9]{0,5}", segment):
                    return None
                key = int(segment)
            else:
                key = segment
            last = depth == len(keys) - 1
            child = node.get(key, _MISSING)
            if last:
                if child is not _MISSING:
                    return None
                if value is EMPTY_OBJ:
                    node[key] = {}
                elif value is EMPTY_ARR:
                    node[key] = _Arr()
                else:
                    node[key] = value
            else:
                want_arr = keys[depth + 1][1]
                if child is _MISSING:
                    child = _Arr() if want_arr else {}
                    node[key] = child
                elif not isinstance(child, dict) or isinstance(child, _Arr) != want_arr:
                    return None
                node = child

    def finish(node):
        if isinstance(node, _Arr):
            if sorted(node) != list(range(len(node))):
                raise ValueError
            return [finish(node[i]) for i in range(len(node))]
        if isinstance(node, dict):
            return {k: finish(v) for k, v in node.items()}
        return node

    try:
        return finish(root)
    except ValueError:
        return None


def normalized(value):
    """What JSON.parse makes of a value: numbers compare by value (1 == 1.0), bools stay bools."""
    if isinstance(value, dict):
        return ("obj", tuple(sorted((k, normalized(v)) for k, v in value.items())))
    if isinstance(value, list):
        return ("arr", tuple(normalized(v) for v in value))
    if isinstance(value, bool) or value is None or isinstance(value, str):
        return (type(value).__name__, value)
    return ("num", float(value))


def typed_values(text):
    """Leaf values whose canonical text is `text`."""
    if text == "None":
        return [None, "", 0, False, 0.0, "None", -0.0]
    if text == "True":
        return [True, "True"]
    if re.fullmatch(r"-?[1-9][0-9]{0,14}", text):
        return [int(text), text]
    if re.fullmatch(r"-?[0-9][0-9.e+\-]*", text):
        try:
            number = float(text)
            if repr(number) == text and number == number and abs(number) != float("inf"):
                return [number, text]
        except ValueError:
            pass
    return [text]


def same_leaf(a, b):
    return type(a) is type(b) and (a == b or (a != a and b != b)) and str(a) == str(b)


# ---------------------------------------------------------------------------
# Genuine callbacks shaped like the spec's examples
# ---------------------------------------------------------------------------

PROJECT = "prj_8f2c"


def payment_info(amount=150000, old=150000, method="card-p2p", widget_method=None, currency="RUB"):
    return {
        "amount": amount, "old_amount": old, "initial_amount": old, "currency": currency,
        "lifetime": 600, "expiration_date": 1700000600, "updated_date": 1700000010,
        "created_date": 1700000000, "method": method, "widget_method": widget_method,
        "type": "payin", "payment_system": None,
    }


def callback(status, sub_status, description, payment_id, *, request_id="req_01HZX", info=None, requisites=None,
             integration=None, additional_info=None):
    return {
        "project_id": PROJECT,
        "general": {"request_id": request_id, "payment_id": payment_id},
        "status": {"status": status, "sub_status": sub_status, "status_description": description},
        "payment_info": info if info is not None else payment_info(),
        "recipient_requisites": requisites,
        "integration": integration if integration is not None else {"form_url": "https://pay.example/f/abc", "redirect_url": None},
        "additional_info": additional_info,
    }


def requisites(card_holder="IVAN IVANOV"):
    return {"pan": "2200700012345678", "card_holder": card_holder, "bank_name": "Sber Bank", "bank_country": "RU", "currency": "RUB"}


def display(card_holder="IVAN IVANOV"):
    items = [
        ("recipient_pan", "2200700012345678"), ("recipient_card_holder", card_holder), ("amount", 150000),
        ("currency", "RUB"), ("valid_until", 1700000600), ("confirm_url", "https://api.pay.example/api/v1/payment/p2p/payin/confirm"),
        ("reject_url", "https://api.pay.example/api/v1/payment/p2p/payin/cancel"),
    ]
    return {"display_data": [{"type": "add_info", "title": title, "data": data} for title, data in items]}


def awaiting(payment_id="order-10045", card_holder="IVAN IVANOV", display_holder="IVAN IVANOV"):
    return callback("processing", "awaiting_confirm", None, payment_id, requisites=requisites(card_holder),
                    additional_info=display(display_holder))


def decline(payment_id="order-10045", description="Canceled by client", redirect=None, method="card-p2p"):
    return callback("decline", None, description, payment_id, info=payment_info(method=method),
                    integration={"form_url": "https://pay.example/f/abc", "redirect_url": redirect})


def success(payment_id="order-10046", redirect=None):
    return callback("success", None, None, payment_id,
                    integration={"form_url": "https://pay.example/f/abc", "redirect_url": redirect})


def without(body, *keys):
    for key in keys:
        body.pop(key)
    return body


def without_requisite(body, key):
    body["recipient_requisites"].pop(key)
    return body


def masked_awaiting():
    body = callback("processing", "awaiting_confirm", None, "order-10054",
                    info=payment_info(method=None, widget_method="payin-p2p-card"),
                    requisites={"pan_hidden": "220070******5678", "card_holder_hidden": "x", "bank_name": "Sber Bank"})
    return body


def awaiting_extra():
    body = awaiting(payment_id="order-10052")
    body["additional_info"]["display_data"].append({"type": "add_info", "title": "sbp_note", "data": "7"})
    return body


def get_in(value, keys):
    for key in keys:
        value = value[key]
    return value


def set_in(value, keys, new):
    get_in(value, keys[:-1])[keys[-1]] = new


def random_timestamp():
    return str(rng.randint(1_700_000_000, 1_799_999_999))


def percent(part):
    return "" if part is None else part.replace("%", "%25").replace(":", "%3A").replace(";", "%3B")


def expected_idempotency_key(body):
    """The fix's idempotencyKey of an unambiguous genuine body (None-written sub_status -> empty)."""
    status = body["status"]
    sub = status.get("sub_status")
    sub = None if not sub or sub == "None" else sub
    return ":".join([percent(body["project_id"]), percent(body["general"]["payment_id"]), percent(status["status"]), percent(sub)])


# ---------------------------------------------------------------------------
# Forgery collection, each checked against the genuine message
# ---------------------------------------------------------------------------


class Case:
    def __init__(self, name, body, timestamp=None, pad=True, note=""):
        self.name = name
        self.value = body
        self.body = dumps(body)
        self.timestamp = timestamp or random_timestamp()
        self.pad = pad
        self.note = note
        self.message, self.headers = sign(self.body, self.timestamp, pad)
        self.forgeries = []
        self.seen = {normalized(parse(self.body))}
        self.rejected = 0

    def add(self, attack, forged, headers=None, timestamp=None):
        """Keep `forged` (a JSON value or text) if its message is the genuine one and its tree differs."""
        text = forged if isinstance(forged, str) else dumps(forged)
        timestamp = timestamp if timestamp is not None else self.timestamp
        try:
            tree = parse(text)
            same = message_of(text, timestamp, self.pad) == self.message
        except (DuplicateKey, ValueError):
            same = False
        if not same:
            self.rejected += 1
            return False
        key = normalized(tree)
        if key in self.seen:
            return False
        self.seen.add(key)
        forged_headers = dict(self.headers)
        if headers:
            forged_headers.update(headers)
        self.forgeries.append({"attack": attack, "body": text, "headers": forged_headers})
        return True

    def to_json(self):
        tree = parse(self.body)
        found = ambiguities(tree)
        out = {
            "name": self.name,
            "options": {} if self.pad else {"options": {"padding": False}},
            "genuine": {"body": self.body, "headers": self.headers},
            "message": self.message,
            "ambiguous": bool(found),
            "ambiguities": [{"path": p, "rule": r} for p, r in found],
            "forgeries": self.forgeries,
        }
        if not found:
            out["idempotencyKey"] = expected_idempotency_key(tree)
        if self.note:
            out["note"] = self.note
        return out


# --- attack 1: forged success through attacker text ------------------------


def injection(case_name, base, slot, base_text, desired, catch, note):
    """A genuine callback whose attacker-influenced string at `slot` is `base_text`
    followed by `;` + the desired entries + `;` + the catch-all path + `:`, and its
    forgeries: the desired members set for real, the rest of the message swallowed by a
    catch-all value, or by a catch-all key."""
    template = copy.deepcopy(base)
    set_in(template, slot, base_text)
    entries = sorted_entries(template)
    slot_keys = tuple((str(k), isinstance(k, int)) for k in slot)
    index = next(i for i, (keys, _) in enumerate(entries) if keys == slot_keys)
    before, slot_entry, after = entries[:index], entries[index], entries[index + 1:]
    injected = sorted(struct_entries(desired), key=entry_text)
    catch_keys = tuple((k, False) for k in catch)
    attacker_text = ";" + ";".join(entry_text(e) for e in injected) + ";" + ":".join(catch)  + ":"
    genuine = copy.deepcopy(base)
    set_in(genuine, slot, base_text + attacker_text)
    case = Case(case_name, genuine, note=note)
    rest = ";" + ";".join(entry_text(e) for e in after)
    kept = before + [slot_entry] + injected
    value_catch = build(kept + [(catch_keys, rest)])
    if value_catch is not None:
        case.add(f"forged-success/value-catch-all {'.'.join(catch)}", value_catch)
    # The same text read as a key: the catch-all path swallows all up to the last ':'.
    last_colon = rest.rfind(":")
    swallowing_key, last_text = rest[:last_colon], rest[last_colon + 1:]
    for value in typed_values(last_text)[:2]:
        for keys in (catch_keys + ((swallowing_key, False),), ((":".join(catch) + ":" + swallowing_key, False),)):
            forged = build(kept + [(keys, value)])
            if forged is not None:
                case.add(f"forged-success/key-catch-all {'.'.join(catch)}", forged)
    return case


def forged_success_cases():
    cases = []
    success_members = {"status": {"status": "success", "status_description": None, "sub_status": None}}
    big_amount = {"payment_info": dict(payment_info(amount=99900000, old=99900000)), "project_id": PROJECT, **success_members}
    # (1) decline whose integration.redirect_url carries a customer query parameter.
    for catch in (("zzz",), ("status", "~"), ("~",)):
        cases.append(injection(
            f"decline, redirect_url with ';…:' text -> success 99900000 (catch-all {'.'.join(catch)})",
            decline(redirect="x"), ("integration", "redirect_url"), "https://shop.example/return?order=10045&q=",
            big_amount, catch, "attacker text in a redirect_url built from a customer query parameter"))
    # (2) awaiting_confirm whose recipient card holder is attacker text.
    cases.append(injection(
        "awaiting_confirm, card_holder with ';…:' text -> success",
        awaiting(), ("recipient_requisites", "card_holder"), "IVAN IVANOV",
        {"status": {"status": "success", "status_description": None, "sub_status": None}}, ("zzz",),
        "attacker text in recipient_requisites.card_holder"))
    # (3) awaiting_confirm whose display_data item (recipient_card_holder) is attacker text:
    # additional_info sorts first, so everything can be rewritten, another order's payment_id included.
    everything = {
        "general": {"payment_id": "order-77777", "request_id": "req_01HZX"},
        "integration": {"form_url": "https://pay.example/f/abc", "redirect_url": None},
        **big_amount,
        "recipient_requisites": None,
    }
    cases.append(injection(
        "awaiting_confirm, display_data recipient_card_holder with ';…:' text -> another order's success",
        awaiting(), ("additional_info", "display_data", 1, "data"), "IVAN IVANOV",
        everything, ("zzz",), "attacker text in additional_info.display_data[1].data (title recipient_card_holder)"))
    # (4) decline whose general.payment_id is attacker text: the forgery reads order-10045.
    cases.append(injection(
        "decline, payment_id with ';…:' text -> success of order-10045",
        decline(payment_id="x"), ("general", "payment_id"), "order-10045",
        {"general": {"request_id": "req_01HZX"}, "integration": {"form_url": "https://pay.example/f/abc", "redirect_url": None},
         **big_amount}, ("zzz",), "attacker text in general.payment_id"))
    return cases


# --- resplit: the ';…:' text split into members, the forgery unambiguous ----


def resplit_cases():
    cases = []
    for name, base, slot, text in [
        ("decline, redirect_url '?q=1;integration:utm:1' (clean re-split)", decline(redirect="x"), ("integration", "redirect_url"),
         "https://shop.example/return?q=1;integration:utm:1"),
        ("awaiting_confirm, card_holder 'IVAN;recipient_requisites:card_holder_hidden:I*** I***' (clean re-split)", awaiting(),
         ("recipient_requisites", "card_holder"), "IVAN IVANOV;recipient_requisites:card_holder_hidden:I*** I***"),
        ("awaiting_confirm, display data 'IVAN;additional_info:display_data:1:data_2:x' (clean re-split)", awaiting(),
         ("additional_info", "display_data", 1, "data"), "IVAN IVANOV;additional_info:display_data:1:data_2:x"),
        # Members the model reads, absent from the genuine, that sort right after the attacker text.
        ("awaiting_confirm, requisites without currency, card_holder 'IVAN;recipient_requisites:currency:USD' (clean re-split)",
         without_requisite(awaiting(payment_id="order-10053"), "currency"), ("recipient_requisites", "card_holder"),
         "IVAN IVANOV;recipient_requisites:currency:USD"),
        ("widget awaiting_confirm, masked requisites, card_holder_hidden '…;recipient_requisites:pan:…' (clean re-split)",
         masked_awaiting(), ("recipient_requisites", "card_holder_hidden"), "I*** I***;recipient_requisites:pan:4000123412341234"),
        ("widget awaiting_confirm, masked requisites, card_holder_hidden '…;recipient_requisites:currency:USD' (clean re-split)",
         masked_awaiting(), ("recipient_requisites", "card_holder_hidden"), "I*** I***;recipient_requisites:currency:USD"),
        ("widget awaiting_confirm, masked requisites, card_holder_hidden '…;…currency:USD;…pan:…' (clean re-split)",
         masked_awaiting(), ("recipient_requisites", "card_holder_hidden"),
         "I*** I***;recipient_requisites:currency:USD;recipient_requisites:pan:4000123412341234"),
    ]:
        genuine = copy.deepcopy(base)
        set_in(genuine, slot, text)
        case = Case(name, genuine, note="the genuine is ambiguous; the forgery is a legitimate-looking unambiguous body")
        entries = sorted_entries(genuine)
        slot_keys = tuple((str(k), isinstance(k, int)) for k in slot)
        out = []
        for keys, value in entries:
            if keys == slot_keys:
                first, *pieces = value.split(";")
                out.append((keys, first))
                for piece in pieces:
                    path, _, leaf = piece.rpartition(":")
                    out.append((tuple((k, d > 0 and bool(re.fullmatch(r"0|[1-9][0-9]*", k))) for d, k in enumerate(path.split(":"))), leaf))
            else:
                out.append((keys, value))
        forged = build(out)
        if forged is not None:
            case.add("resplit/clean", forged)
        cases.append(case)
    return cases


# --- attack 2 and 3: replays and malleability without attacker text ---------


def variants(case, attack, edits):
    """Apply each edit (a function of a deep copy) and keep those with the genuine message."""
    for label, edit in edits:
        forged = copy.deepcopy(case.value)
        try:
            result = edit(forged)
        except (KeyError, IndexError, TypeError, AttributeError):
            continue
        case.add(f"{attack}/{label}", result if isinstance(result, dict) else forged)


def pop_in(value, keys):
    return get_in(value, keys[:-1]).pop(keys[-1])


def none_equivalents():
    return [("null", None), ('"None"', "None"), ('""', ""), ("0", 0), ("false", False), ("0.0", 0.0), ("-0.0", -0.0)]


def replay_edits(case):
    edits = []
    for label, value in none_equivalents():
        edits.append((f"sub_status {label}", lambda b, v=value: set_in(b, ("status", "sub_status"), v)))
        edits.append((f"status_description {label}", lambda b, v=value: set_in(b, ("status", "status_description"), v)))
        edits.append((f"sub_status {label} + status_description \"None\"",
                      lambda b, v=value: (set_in(b, ("status", "sub_status"), v), set_in(b, ("status", "status_description"), "None"))))
    # project_id swallowing the member after it in the message.
    entries = sorted_entries(case.value)
    texts = [entry_text(e) for e in entries]
    for keys_wanted, label in [((("project_id", False),), "project_id swallows the next member"),
                               ((("general", False), ("payment_id", False)), "payment_id swallows the next member"),
                               ((("general", False), ("request_id", False)), "request_id swallows the next member")]:
        i = next((i for i, (k, _) in enumerate(entries) if k == keys_wanted), None)
        if i is None or i + 1 >= len(entries):
            continue
        merged = entries[:i] + [(entries[i][0], leaf_text(entries[i][1]) + ";" + texts[i + 1])] + entries[i + 2:]
        forged = build(merged)
        if forged is not None:
            edits.append((label, lambda b, f=forged: f))
    return edits


def malleability_edits(case):
    v = case.value
    edits = []

    def move_to_colon_key(keys):
        def edit(b):
            value = pop_in(b, keys)
            b[":".join(str(k) for k in keys)] = value
        return edit

    for keys in [("payment_info", "amount"), ("payment_info", "currency"), ("status", "status_description"),
                 ("status", "status"), ("general", "payment_id"), ("recipient_requisites", "pan"),
                 ("recipient_requisites", "card_holder"), ("status", "sub_status")]:
        edits.append((f"'{':'.join(keys)}' key in place of nesting", move_to_colon_key(keys)))

    def nest_colon_key(keys, split):
        # status.status -> {"status": {"status:status" ...}} style: two segments joined one level down.
        def edit(b):
            value = pop_in(b, keys)
            get_in(b, keys[:split])[":".join(str(k) for k in keys[split:])] = value
        return edit

    if isinstance(v.get("additional_info"), dict):
        items = v["additional_info"]["display_data"]
        edits.append(('display_data as {"0": …}', lambda b: set_in(b, ("additional_info", "display_data"),
                                                                      {str(i): item for i, item in enumerate(b["additional_info"]["display_data"])})))
        for i, item in enumerate(items):
            edits.append((f"display_data[{i}] ({item['title']}) data moved into a 'data:…' key",
                          nest_colon_key(("additional_info", "display_data", i, "data"), 3)))
            if isinstance(item["data"], str) and re.fullmatch(r"[1-9][0-9]{0,15}", item["data"]):
                edits.append((f'display_data[{i}] ({item["title"]}) data {item["data"]} in place of "{item["data"]}"',
                              lambda b, i=i: set_in(b, ("additional_info", "display_data", i, "data"), int(b["additional_info"]["display_data"][i]["data"]))))
            if isinstance(item["data"], int):
                edits.append((f'display_data[{i}] ({item["title"]}) data "{item["data"]}" in place of {item["data"]}',
                              lambda b, i=i: set_in(b, ("additional_info", "display_data", i, "data"), str(b["additional_info"]["display_data"][i]["data"]))))
            elif isinstance(item["data"], str) and ":" in item["data"]:
                head, _, tail = item["data"].partition(":")
                edits.append((f"display_data[{i}] ({item['title']}) data split into an object at ':'",
                              lambda b, i=i, h=head, t=tail: set_in(b, ("additional_info", "display_data", i, "data"), {h: t})))
                edits.append((f"display_data[{i}] ({item['title']}) data into a 'data:{head}' key",
                              lambda b, i=i, h=head, t=tail: (b["additional_info"]["display_data"][i].pop("data"),
                                                             b["additional_info"]["display_data"][i].__setitem__(f"data:{h}", t))))
        edits.append(("display_data gets an empty {} item", lambda b: b["additional_info"]["display_data"].append({})))
        edits.append(("display_data gets an empty [] item", lambda b: b["additional_info"]["display_data"].append([])))
        edits.append(("display_data[1] gets an empty member", lambda b: b["additional_info"]["display_data"][1].__setitem__("extra", {})))
    for keys in [("payment_info", "amount"), ("payment_info", "old_amount"), ("payment_info", "expiration_date"),
                 ("payment_info", "lifetime")]:
        if isinstance(get_in(v, keys), int):
            edits.append((f'{".".join(keys)} "{get_in(v, keys)}" in place of {get_in(v, keys)}',
                          lambda b, k=keys: set_in(b, k, str(get_in(b, k)))))
    for keys in [("payment_info", "method"), ("payment_info", "widget_method"), ("payment_info", "payment_system"),
                 ("integration", "redirect_url"), ("recipient_requisites",), ("additional_info",)]:
        try:
            current = get_in(v, keys)
        except (KeyError, TypeError):
            continue
        if not current:
            for label, value in rng.sample(none_equivalents()[1:], 3):
                edits.append((f"{'.'.join(keys)} {label} in place of null", lambda b, k=keys, x=value: set_in(b, k, x)))
    for where in [(), ("payment_info",), ("status",)]:
        for label, empty in (("{}", {}), ("[]", [])):
            edits.append((f"empty {label} added under {'.'.join(where) or 'the root'}",
                          lambda b, w=where, e=empty: get_in(b, w).__setitem__("extra", copy.deepcopy(e))))
    for member, empties in [("additional_info", [{}, {"display_data": []}, {"display_data": [{}]}, []]),
                            ("recipient_requisites", [{}, [], {"pan": {}}]), ("payment_info", [{}]), ("integration", [{}])]:
        if member not in v:
            for empty in empties:
                edits.append((f"empty {dumps(empty)} {member} in place of no member",
                              lambda b, m=member, e=empty: b.__setitem__(m, copy.deepcopy(e))))
    if isinstance(v.get("recipient_requisites"), dict) and re.fullmatch(r"[1-9][0-9]{0,15}", v["recipient_requisites"]["pan"]):
        edits.append(("recipient_requisites.pan digits as an integer",
                      lambda b: set_in(b, ("recipient_requisites", "pan"), int(b["recipient_requisites"]["pan"]))))
    edits.append(("empty {} and [] added in several places", lambda b: (b.__setitem__("a", {"b": [], "c": {}}),
                                                                        b["status"].__setitem__("x", []))))
    # A colon payment_id read as nesting.
    pid = v["general"]["payment_id"]
    if ":" in pid:
        head, _, tail = pid.partition(":")
        edits.append(("payment_id split into an object at ':'", lambda b: set_in(b, ("general", "payment_id"), {head: tail})))
        edits.append(("payment_id read as key 'payment_id:…'", lambda b: (b["general"].pop("payment_id"),
                                                                          b["general"].__setitem__(f"payment_id:{head}", tail))))
    # Final decline made non-final: status.status swallows the member after it.
    entries = sorted_entries(v)
    texts = [entry_text(e) for e in entries]
    for i, (keys, _) in enumerate(entries):
        if keys in ((("status", False), ("status", False)), (("payment_info", False), ("amount", False)),
                    (("payment_info", False), ("currency", False)), (("recipient_requisites", False), ("pan", False)),
                    (("status", False), ("status_description", False))) and i + 1 < len(entries):
            merged = entries[:i] + [(keys, leaf_text(entries[i][1]) + ";" + texts[i + 1])] + entries[i + 2:]
            forged = build(merged)
            if forged is not None:
                edits.append((f"{':'.join(k for k, _ in keys)} swallows the next member", lambda b, f=forged: f))
    return edits


# --- empty key at the root: no separator after an empty path -----------------
# The spec's Python writes `f"{path}:{key}" if path else key`, so members under a
# root key "" write exactly the entries they would write at the root: a field can be
# moved under "" (out of the reader's sight) with the message unchanged, and "" holds
# neither ':' nor ';'.

HIDEABLE = [
    ("status", "status_description"), ("status", "sub_status"), ("payment_info", "amount"), ("recipient_requisites",),
    ("additional_info",), ("integration", "redirect_url"),
]


def nest(keys, value):
    for key in reversed(keys):
        value = {key: value}
    return value


def merge_into(target, extra):
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            merge_into(target[key], value)
        else:
            target[key] = value


def empty_key_edits(case):
    v = case.value
    edits = []
    for keys in HIDEABLE:
        try:
            get_in(v, keys)
        except (KeyError, TypeError):
            continue

        def hide(b, keys=keys):
            value = pop_in(b, keys)
            b[""] = nest(keys, value)
        edits.append((f"{'.'.join(keys)} moved under a root \"\" key", hide))

        def hide_deeper(b, keys=keys):
            value = pop_in(b, keys)
            b[""] = {"": nest(keys, value)}
        if keys == ("status", "status_description"):
            edits.append((f"{'.'.join(keys)} moved under root \"\" keys two deep", hide_deeper))
    if ("status", "sub_status") in HIDEABLE and v["status"].get("status_description") is not None:
        def both(b):
            hidden = {"status": {"status_description": b["status"].pop("status_description"), "sub_status": b["status"].pop("sub_status")}}
            b[""] = hidden
        edits.append(("status_description and sub_status moved under a root \"\" key", both))
    if isinstance(v.get("additional_info"), dict):
        def trailing(b):
            items = b["additional_info"]["display_data"]
            keep = [i for i, item in enumerate(items) if item.get("title") not in ("confirm_url", "reject_url")]
            if keep != list(range(len(keep))):
                raise KeyError("not trailing")
            hidden = {str(i): items[i] for i in range(len(keep), len(items))}
            b["additional_info"]["display_data"] = items[:len(keep)]
            b[""] = {"additional_info": {"display_data": hidden}}
        edits.append(('trailing display_data items (confirm_url, reject_url) moved under a root "" key', trailing))
    if isinstance(v.get("recipient_requisites"), dict) and isinstance(v.get("payment_info"), dict):
        def several(b):
            hidden = {}
            for keys in (("payment_info", "amount"), ("recipient_requisites", "pan"), ("recipient_requisites", "card_holder")):
                merge_into(hidden, nest(keys, pop_in(b, keys)))
            b[""] = hidden
        edits.append(('amount, pan and card_holder moved under a root "" key', several))
    return edits


# --- generic enumerator -------------------------------------------------------


def generic(case, limit):
    genuine = sorted_entries(case.value)
    if not genuine:
        return
    kept = 0
    for _ in range(GENERIC_ATTEMPTS):
        if kept >= limit:
            break
        entries = list(genuine)
        ops = []
        for _ in range(rng.choice((1, 1, 2, 2, 3))):
            result = mutate(entries)
            if result is None:
                break
            entries, op = result
            ops.append(op)
        else:
            forged = build(entries)
            if forged is not None and case.add("generic/" + "+".join(ops), forged):
                kept += 1


def mutate(entries):
    leaves = [i for i, (_, v) in enumerate(entries) if v not in EMPTIES]
    op = rng.choice(["merge", "merge", "boundary", "boundary", "none", "type", "keyjoin", "arr2obj", "empty", "resplit", "resplit"])
    entries = list(entries)
    if op == "merge":
        # Entry i swallows the k entries after it (in message order) into its value.
        i = rng.choice(leaves)
        following = [j for j in leaves if j > i]
        if not following:
            return None
        k = min(len(following), rng.choice((1, 1, 2, 3)))
        swallowed = following[:k]
        text = leaf_text(entries[i][1]) + "".join(";" + entry_text(entries[j]) for j in swallowed)
        entries[i] = (entries[i][0], text)
        for j in reversed(swallowed):
            del entries[j]
        return entries, "merge"
    if op == "boundary":
        # Move the path/value boundary to another ':' of the entry, and regroup the keys.
        i = rng.choice(leaves)
        keys, value = entries[i]
        text = entry_text(entries[i])
        colons = [m.start() for m in re.finditer(":", text)]
        current = len(text) - len(leaf_text(value)) - 1
        choices = [c for c in colons if c != current]
        if not choices:
            return None
        cut = rng.choice(choices)
        path, leaf = text[:cut], text[cut + 1:]
        if leaf == "":
            return None
        segments = path.split(":")
        grouped = [segments[0]]
        for segment in segments[1:]:
            if rng.random() < 0.2:
                grouped[-1] += ":" + segment
            else:
                grouped.append(segment)
        index_at = {(d, k) for d, (k, is_index) in enumerate(keys) if is_index}
        new_keys = tuple((k, (d, k) in index_at) for d, k in enumerate(grouped))
        entries[i] = (new_keys, rng.choice(typed_values(leaf)))
        return entries, "boundary"
    if op == "none":
        nones = [i for i in leaves if leaf_text(entries[i][1]) == "None"]
        if not nones:
            return None
        i = rng.choice(nones)
        choice = rng.choice([x for x in typed_values("None") if not same_leaf(x, entries[i][1])])
        entries[i] = (entries[i][0], choice)
        return entries, "none"
    if op == "type":
        typed = [i for i in leaves if leaf_text(entries[i][1]) != "None" and len(typed_values(leaf_text(entries[i][1]))) > 1]
        if not typed:
            return None
        i = rng.choice(typed)
        choice = [x for x in typed_values(leaf_text(entries[i][1])) if not same_leaf(x, entries[i][1])]
        entries[i] = (entries[i][0], rng.choice(choice))
        return entries, "type"
    if op == "keyjoin":
        deep = [i for i in leaves if len(entries[i][0]) >= 2]
        if not deep:
            return None
        i = rng.choice(deep)
        keys = entries[i][0]
        d = rng.randrange(len(keys) - 1)
        joined = ((keys[d][0] + ":" + keys[d + 1][0], False),)
        entries[i] = (keys[:d] + joined + keys[d + 2:], entries[i][1])
        return entries, "keyjoin"
    if op == "arr2obj":
        spots = [(i, d) for i in leaves for d, (_, is_index) in enumerate(entries[i][0]) if is_index]
        if not spots:
            return None
        i, d = rng.choice(spots)
        prefix = entries[i][0][:d]
        out = []
        for keys, value in entries:
            if keys[:d] == prefix and len(keys) > d and keys[d][1]:
                keys = keys[:d] + ((keys[d][0], False),) + keys[d + 1:]
            out.append((keys, value))
        return out, "arr2obj"
    if op == "empty":
        i = rng.choice(leaves)
        keys = entries[i][0]
        d = rng.randrange(len(keys))
        prefix = keys[:d]
        if d > 0 and prefix[-1:] and keys[d][1]:
            # An array: append an item at the next index.
            count = 1 + max(int(k[d][0]) for k, _ in entries if k[:d] == prefix and len(k) > d and k[d][1])
            new = prefix + ((str(count), True),)
        else:
            new = prefix + ((rng.choice(["zz", "extra", "_", "~"]), False),)
        entries.append((new, rng.choice(EMPTIES)))
        return entries, "empty"
    if op == "resplit":
        spots = [i for i in leaves if isinstance(entries[i][1], str) and value_is_ambiguous(entries[i][1])]
        if not spots:
            return None
        i = rng.choice(spots)
        keys, value = entries[i]
        parts = value.split(";")
        cuts = [j for j in range(1, len(parts)) if ":" in parts[j]]
        cut = rng.choice(cuts)
        first = ";".join(parts[:cut])
        if first == "":
            return None
        new = [(keys, first)]
        pieces = [parts[cut]]
        for part in parts[cut + 1:]:
            if ":" in part and rng.random() < 0.7:
                pieces.append(part)
            else:
                pieces[-1] += ";" + part
        for piece in pieces:
            colons = [m.start() for m in re.finditer(":", piece)]
            cut_at = colons[-1] if rng.random() < 0.6 else rng.choice(colons)
            path, leaf = piece[:cut_at], piece[cut_at + 1:]
            if leaf == "" or path == "":
                return None
            new.append((tuple((k, bool(re.fullmatch(r"0|[1-9][0-9]*", k)) and d > 0) for d, k in enumerate(path.split(":"))),
                        rng.choice(typed_values(leaf))))
        entries[i:i + 1] = new
        return entries, "resplit"
    return None


# --- attack 4: the base64 / timestamp boundary --------------------------------


def canonical_b64_decode(text, pad):
    """Bytes whose canonical base64url (padded or not) is exactly `text`, else None."""
    if pad:
        if len(text) % 4:
            return None
    elif len(text) % 4 == 1:
        return None
    try:
        data = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    except (ValueError, base64.binascii.Error):
        return None
    return data if b64url(data, pad) == text else None


def timestamp_forgeries(case):
    encoded = case.message[: len(case.message) - len(case.timestamp)]
    joined = joined_of(case.body)
    entries = sorted_entries(case.value)
    last_keys, last_value = entries[-1]
    last_text = leaf_text(last_value)
    for cut in range(max(1, len(encoded) - 8), len(case.message)):
        prefix, timestamp = case.message[:cut], case.message[cut:]
        if cut == len(encoded) or not timestamp.isdigit():
            continue
        data = canonical_b64_decode(prefix, case.pad)
        if data is None:
            continue
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        head = joined[: len(joined) - len(last_text)]
        if not text.startswith(head):
            continue
        new_last = text[len(head):]
        if new_last == "":
            continue
        for value in typed_values(new_last)[:2]:
            forged = build(entries[:-1] + [(last_keys, value)])
            if forged is not None:
                zeros = " (leading zeros)" if timestamp.startswith("0") else ""
                case.add(f"timestamp/{'padded' if case.pad else 'unpadded'} boundary at {cut - len(encoded):+d}{zeros}",
                         forged, headers={"x-access-timestamp": timestamp}, timestamp=timestamp)


def timestamp_cases():
    cases = []
    # Unpadded: the genuine is signed with padding false; leading timestamp digits can be body bytes.
    for attempt in range(200):
        case = Case("success signed with padding:false, timestamp digits read as body bytes",
                    success(payment_id=f"order-{10046 + attempt}"), pad=False)
        timestamp_forgeries(case)
        if len(case.forgeries) >= 2:
            cases.append(case)
            break
    # Padded: only when the joined text's length is a multiple of 3 (no '=' in the base64).
    for attempt in range(400):
        body = decline(payment_id=f"order-{20046 + attempt}{'-a' * (attempt % 3)}", description="Order cancelled by timeout", method="null")
        if len(joined_of(dumps(body)).encode("utf-8")) % 3:
            continue
        case = Case("decline with unpadded-length base64 (len % 3 == 0), timestamp digits read as body bytes", body)
        timestamp_forgeries(case)
        if len(case.forgeries) >= 2:
            cases.append(case)
            break
    return cases


# ---------------------------------------------------------------------------


def main():
    cases = []
    plain = [
        Case("success, no attacker text", success()),
        Case("success, payment_id with ':', '%' and plain ';'", success(payment_id="shop%:order:10047;b")),
        Case("widget success without requisites or display data (members absent)", without(success(payment_id="order-10051"),
                                                                                             "recipient_requisites", "additional_info")),
        Case("processing:awaiting_confirm with an unlisted display title", awaiting_extra()),
        Case("decline, plain ';' text (description and redirect_url)",
             decline(description="Declined by issuer; code 05", redirect="https://shop.example/return?a=1;b=2")),
        Case("processing:awaiting_confirm with requisites and display_data, no attacker text", awaiting()),
        Case("dispute:different_amount", callback("dispute", "different_amount", "Client sent a different amount", "order-10049",
                                                   info=payment_info(amount=140000, old=150000))),
        Case("decline by timeout, method text 'null'", decline(payment_id="order-10050", description="Order cancelled by timeout", method="null")),
    ]
    for case in plain:
        replays = replay_edits(case)
        if case.value["status"]["status"] != "success":
            replays = rng.sample(replays, min(len(replays), REPLAYS_PER_OTHER_CASE))
        variants(case, "replay", replays)
        edits = malleability_edits(case)
        first = [e for e in edits if re.search(PRIORITY, e[0])]
        others = [e for e in edits if not re.search(PRIORITY, e[0])]
        variants(case, "malleability", first + rng.sample(others, max(0, min(len(others), MALLEABILITY_PER_CASE - len(first)))))
        variants(case, "empty-key", empty_key_edits(case))
    cases += plain
    # Members the spec's callback table does not list (the create request's
    # payment.description; the service may add fields): a genuine callback without
    # ';…:' text, which must verify.
    extra = decline(payment_id="order-10055", description="Requisites not found")
    extra["payment_info"]["description"] = "Order 10055"
    extra["customer"] = {"id": "cust-42"}
    cases.append(Case("decline with members the callback table does not list (payment_info.description, customer.id)", extra))
    cases += forged_success_cases()
    cases += resplit_cases()
    cases += timestamp_cases()
    for case in cases:
        generic(case, GENERIC_PER_CASE)

    out = {
        "generator": "scripts/forgery_corpus.py (python3 scripts/forgery_corpus.py); independent Python canonicalizer, "
                     "every forgery has exactly its genuine's message",
        "seed": SEED,
        "publicKeyPem": PUBLIC_PEM_BYTES.decode("ascii"),
        "cases": [case.to_json() for case in cases],
    }
    text = json.dumps(out, ensure_ascii=False, separators=(",", ":")) + "\n"
    assert len(text.encode("utf-8")) < MAX_BYTES, f"{len(text.encode('utf-8'))} bytes: lower GENERIC_PER_CASE"
    # Self-check of what was written: every forgery's message is its genuine's.
    for case in out["cases"]:
        pad = not case["options"]
        genuine = case["genuine"]
        assert message_of(genuine["body"], genuine["headers"]["x-access-timestamp"], pad) == case["message"]
        for forgery in case["forgeries"]:
            assert message_of(forgery["body"], forgery["headers"]["x-access-timestamp"], pad) == case["message"], forgery
            assert normalized(parse(forgery["body"])) != normalized(parse(genuine["body"]))
    OUT.write_text(text, encoding="utf-8")
    counts = {}
    for case in out["cases"]:
        for forgery in case["forgeries"]:
            kind = forgery["attack"].split("/")[0]
            counts[kind] = counts.get(kind, 0) + 1
    total = sum(counts.values())
    print(f"wrote {OUT}: {len(out['cases'])} cases, {total} forgeries {counts}, {len(text.encode('utf-8'))} bytes")


if __name__ == "__main__":
    main()
