"""The run: every case and its forgeries, the self-check of what is written, and
tests/fixtures/forgeries.json."""
import json
import re

from .canonical import message_of, parse
from .case import Case
from .config import (GENERIC_PER_CASE, MALLEABILITY_PER_CASE, MAX_BYTES, OUT, PRIORITY, REPLAYS_PER_OTHER_CASE,
                     SEED, rng)
from .edits import malleability_edits, replay_edits, variants
from .empty_key import empty_key_edits
from .entries import normalized
from .generic import generic
from .genuine import awaiting, awaiting_extra, callback, decline, payment_info, success, without
from .injection import forged_success_cases, resplit_cases
from .signing import PUBLIC_PEM_BYTES
from .timestamp import timestamp_cases

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
