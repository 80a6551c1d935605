"""Empty key at the root: no separator after an empty path. The spec's Python
writes `f"{path}:{key}" if path else key`, so members under a root key "" write
exactly the entries they would write at the root: a field can be moved under ""
(out of the reader's sight) with the message unchanged, and "" holds neither ':'
nor ';'."""
from .edits import pop_in
from .genuine import get_in

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
