"""Attacks 2 and 3, without attacker text: replays (new idempotency keys: sub_status
None equivalents, a member swallowing the one after it) and malleability (null-ing
or garbling fields, {"0": …} for an array, "a:b" keys for nesting, "5000" for 5000,
empty {} / [])."""
import copy
import re

from .canonical import dumps, leaf_text
from .config import rng
from .entries import build, entry_text, sorted_entries
from .genuine import get_in, set_in

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
