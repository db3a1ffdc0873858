"""A member's signed link to a game's page: who they are, which game, in which role, until when.

A token is `<payload>.<signature>`: the payload is compact JSON in URL-safe base64, the signature
HMAC-SHA256 of it with the deployment's secret. The signature makes a link impossible to forge or
alter (no game is readable by guessing its id); the store's row (db/web.py) makes it revocable.
Pure: the secret, the time and the random id are inputs."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass

PLAYER, GM, SPECTATOR, MEMBER = "player", "gm", "spectator", "member"
ROLES = (PLAYER, GM, SPECTATOR, MEMBER)
DAYS = 30                      # a link's life unless the operator says otherwise
TOKEN_MAX = 400                # longer than any token we mint: refused before any decoding


class LinkRefused(Exception):
    """A link that cannot be honoured; `code` names the page's words (`web.refused_<code>`)."""

    def __init__(self, code: str):
        super().__init__(code)
        self.code = code


@dataclass(frozen=True)
class Link:
    id: str           # the store's row (revocation)
    guild_id: int
    game_id: int      # 0: the server's list of games
    user_id: int
    role: str
    expires_at: int   # unix seconds


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def _mac(secret: bytes, payload: str) -> str:
    return _b64(hmac.new(secret, payload.encode("ascii"), hashlib.sha256).digest())


def sign(secret: bytes, link: Link) -> str:
    body = json.dumps([link.id, link.guild_id, link.game_id, link.user_id, link.role, link.expires_at],
                      separators=(",", ":"))
    payload = _b64(body.encode("utf-8"))
    return f"{payload}.{_mac(secret, payload)}"


def verify(secret: bytes, token: str, now: float) -> Link:
    """The link a token carries, or LinkRefused: `altered` (not ours, or changed), `expired`."""
    if not token or len(token) > TOKEN_MAX or token.count(".") != 1:
        raise LinkRefused("altered")
    payload, signature = token.split(".")
    if not hmac.compare_digest(signature, _mac(secret, payload)):
        raise LinkRefused("altered")
    try:
        link_id, guild_id, game_id, user_id, role, expires_at = json.loads(_unb64(payload))
        link = Link(str(link_id), int(guild_id), int(game_id), int(user_id), str(role), int(expires_at))
    except (ValueError, TypeError):       # signed by us, so only a bug gets here
        raise LinkRefused("altered") from None
    if link.role not in ROLES:
        raise LinkRefused("altered")
    if now >= link.expires_at:
        raise LinkRefused("expired")
    return link
