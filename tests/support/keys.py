"""Keys and credentials files made in a test, as the clouds' consoles give them: an RSA key in
PEM (Snowflake's key-pair sign-in, encrypted or not) and a Google service account's JSON key."""

from __future__ import annotations

from pathlib import Path

from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa


def rsa_key() -> rsa.RSAPrivateKey:
    return rsa.generate_private_key(public_exponent=65537, key_size=2048)


def pem(key: rsa.RSAPrivateKey, passphrase: str | None = None) -> bytes:
    """The key as ``openssl genrsa | openssl pkcs8`` writes it, encrypted with ``passphrase`` if given."""
    encryption = (serialization.BestAvailableEncryption(passphrase.encode()) if passphrase is not None
                  else serialization.NoEncryption())
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, encryption)


def write_key(path: Path, passphrase: str | None = None) -> rsa.RSAPrivateKey:
    """A new key written to ``path`` (its folders made), returned for checking signatures."""
    key = rsa_key()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pem(key, passphrase))
    return key


def service_account_key(project_id: str = "p-1") -> dict[str, str]:
    """A service account's JSON key as the Cloud console gives it, with a key made here."""
    return {"type": "service_account", "project_id": project_id, "private_key_id": "0123abcd",
            "private_key": pem(rsa_key()).decode(), "client_email": f"runner@{project_id}.iam.gserviceaccount.com",
            "client_id": "1234567890", "token_uri": "https://oauth2.googleapis.com/token"}
