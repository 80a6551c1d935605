"""The test key pair (tests/vectors/keys) and the signing of a genuine callback's
message, with the headers the service sends."""
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import padding as rsa_padding

from .canonical import b64url, message_of
from .config import MERCHANT_ID, PRIVATE_KEY_FILE, PUBLIC_KEY_FILE

PRIVATE_KEY = serialization.load_pem_private_key(PRIVATE_KEY_FILE.read_bytes(), password=None)
PUBLIC_PEM_BYTES = PUBLIC_KEY_FILE.read_bytes()
assert PRIVATE_KEY.public_key().public_bytes(
    serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo
) == PUBLIC_PEM_BYTES, "rsa2048.pkcs8.pem is the private half of rsa2048.public.pem"


def sign(body_text, timestamp, pad=True):
    message = message_of(body_text, timestamp, pad)
    signature = PRIVATE_KEY.sign(message.encode("utf-8"), rsa_padding.PKCS1v15(), hashes.SHA256())
    headers = {
        "x-access-timestamp": timestamp,
        "x-access-merchant-id": MERCHANT_ID,
        "x-access-signature": b64url(signature, pad),
        "x-access-token": b64url(PUBLIC_PEM_BYTES, pad),
    }
    PRIVATE_KEY.public_key().verify(signature, message.encode("utf-8"), rsa_padding.PKCS1v15(), hashes.SHA256())
    return message, headers
