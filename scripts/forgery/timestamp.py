"""Attack 4: the base64 / timestamp boundary moved (unpadded, padded): leading
timestamp digits read as body bytes."""
import base64

from .canonical import b64url, dumps, joined_of, leaf_text
from .case import Case
from .entries import build, sorted_entries, typed_values
from .genuine import decline, success

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
