"""The generator's settings: the seed, the paths, the key files, how many
forgeries of each class a case keeps, and the one seeded random generator every
module draws from (in the order the run calls them: the output is deterministic)."""
import random
from pathlib import Path

SEED = 20261124
ROOT = Path(__file__).resolve().parent.parent.parent
KEYS = ROOT / "tests" / "vectors" / "keys"
OUT = ROOT / "tests" / "fixtures" / "forgeries.json"
# tests/vectors/callbacks.json: verifying_key keys/rsa2048.public.pem; its
# private half signs the callbacks (the vectors' signatures.json use rsa2048.pkcs8.pem).
PRIVATE_KEY_FILE = KEYS / "rsa2048.pkcs8.pem"
PUBLIC_KEY_FILE = KEYS / "rsa2048.public.pem"
MERCHANT_ID = "merchant-1"
GENERIC_PER_CASE = 4
GENERIC_ATTEMPTS = 4000
MALLEABILITY_PER_CASE = 18
REPLAYS_PER_OTHER_CASE = 8
PRIORITY = r'\{"0"|status:status|payment_info:amount|"\d+" in place|swallows|several places|payment_id|data split|confirm|in place of no member|as an integer|in place of "'
MAX_BYTES = 1_000_000

rng = random.Random(SEED)
