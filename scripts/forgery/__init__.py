"""Writes tests/fixtures/forgeries.json: genuine signed callbacks and forged
bodies (and headers) that keep the genuine signature valid, for
tests/js/forgeries.test.mjs.

The spec's signed message (interface.md, Authentication) does not determine
the body: keys may contain ':', values ':' and ';', several values all write
`None`, empty containers write nothing, and the base64 text and the timestamp
have no separator. Every forgery here is checked IN PYTHON, with this package's
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

The modules, in the order the generator uses them:
  config      the seed, paths, key files and per-case counts, and the one seeded rng
  canonical   the canonical form, written independently (spec steps 1 to 5, Python
              origin), and the fix's ambiguity rule (to label genuine bodies)
  signing     the test key pair and the signing of a genuine callback
  entries     structured entries (keys, value), and bodies built back from them
  genuine     genuine callbacks shaped like the spec's examples
  case        a Case: one genuine callback and the forgeries kept for it
  injection   forged-success and resplit (attacker text with ';…:')
  edits       replay and malleability (no attacker text)
  empty_key   members moved under a root key ""
  generic     the random enumerator
  timestamp   the base64 / timestamp boundary
  main        the run: every case, the self-check, the file written

Run: python3 scripts/forgery_corpus.py
"""
