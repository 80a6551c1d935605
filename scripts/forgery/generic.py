"""The generic enumerator: random re-splits of the joined text at ';' and ':',
None swaps, digit strings <-> numbers, added empty containers."""
import re

from .canonical import leaf_text, value_is_ambiguous
from .config import GENERIC_ATTEMPTS, rng
from .entries import EMPTIES, build, entry_text, same_leaf, sorted_entries, typed_values

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
