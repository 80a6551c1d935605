#!/usr/bin/env bash
# Writes tests/fixtures/keys/: test-only keys the library must refuse (or, for
# e=3, accept), each with a clear error code. Run once; the output is committed.
set -euo pipefail
out="$(cd "$(dirname "$0")/.." && pwd)/tests/fixtures/keys"
mkdir -p "$out" && cd "$out"
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:1024 -out rsa1024.pkcs8.pem 2>/dev/null
openssl pkey -in rsa1024.pkcs8.pem -pubout -out rsa1024.public.pem
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:4160 -out rsa4160.pkcs8.pem 2>/dev/null
openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -pkeyopt rsa_keygen_pubexp:3 -out rsa2048e3.pkcs8.pem 2>/dev/null
openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out ec.pkcs8.pem
openssl ec -in ec.pkcs8.pem -out ec.sec1.pem 2>/dev/null
openssl pkey -in ec.pkcs8.pem -pubout -out ec.public.pem
openssl genpkey -algorithm ED25519 -out ed25519.pkcs8.pem
openssl pkcs8 -topk8 -in ../../vectors/keys/rsa2048.pkcs8.pem -v2 aes-256-cbc -passout pass:test -out rsa2048.encrypted.pem
openssl req -new -x509 -key ../../vectors/keys/rsa2048.pkcs8.pem -subj /CN=test -days 1 -out rsa2048.cert.pem 2>/dev/null
# A 2048-bit modulus with a 41-bit public exponent: no sane sender uses one.
python3 - <<'PY'
from cryptography.hazmat.primitives.asymmetric import rsa
from cryptography.hazmat.primitives import serialization
from pathlib import Path
n = rsa.generate_private_key(65537, 2048).public_key().public_numbers().n
key = rsa.RSAPublicNumbers((1 << 40) + 1, n).public_key()
pem = key.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
Path("rsa2048.bigexponent.public.pem").write_bytes(pem)
PY
ls
