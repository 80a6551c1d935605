"""A Case: one genuine signed callback and the forgeries kept for it, each checked
against the genuine message."""
from .canonical import DuplicateKey, ambiguities, dumps, message_of, parse
from .entries import normalized
from .genuine import expected_idempotency_key, random_timestamp
from .signing import sign

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
