"""Attacker text with ';…:' in a member: forged-success (attack 1: the text moved
into real members, a catch-all member, value or key, swallowing the rest of the
message) and resplit (the text split into members with no catch-all: the forgery
itself is unambiguous)."""
import copy
import re

from .case import Case
from .entries import build, entry_text, sorted_entries, struct_entries, typed_values
from .genuine import PROJECT, awaiting, decline, masked_awaiting, payment_info, set_in, without_requisite

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
