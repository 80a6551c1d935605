#!/usr/bin/env python3
"""Writes tests/fixtures/forgeries.json: genuine signed callbacks and forged
bodies (and headers) that keep the genuine signature valid, for
tests/js/forgeries.test.mjs. The generator is the package scripts/forgery/ (its
__init__.py says what the attack classes are and which module holds each).

Run: python3 scripts/forgery_corpus.py
"""
from forgery.main import main

if __name__ == "__main__":
    main()
