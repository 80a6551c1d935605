"""Structured entries: (keys, value) with keys a tuple of (segment, is_index). A
value EMPTY_OBJ / EMPTY_ARR is a container that writes nothing. A body's sorted
entries, a body built back from entries (or None when they form no tree), and
the leaf values whose canonical text is a given text."""
import re

from .canonical import leaf_text

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
