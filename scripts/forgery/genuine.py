"""Genuine callbacks shaped like the spec's examples, the helpers that edit them,
and the fix's idempotency key of an unambiguous one."""
from .config import rng

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
