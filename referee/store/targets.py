"""Where a webhook may point: a URL normalised, resolved and checked before it is stored and
again before each attempt (the SSRF guard). Public addresses only, unless
REFEREE_WEBHOOK_HOSTS allows a host, an address or a network, or REFEREE_DEV=1."""
from __future__ import annotations

import ipaddress
import json
import os
import re
import socket
from typing import NamedTuple
from urllib.parse import quote, urlsplit


def allowed_targets() -> dict:
    """REFEREE_WEBHOOK_HOSTS and REFEREE_DEV, read now."""
    env = os.environ
    hosts = [h.strip().lower() for h in env.get("REFEREE_WEBHOOK_HOSTS", "").split(",") if h.strip()]
    return {
        "hosts": {_allowed_name(h) for h in hosts if _network(h) is None},
        "networks": [n for n in map(_network, hosts) if n is not None],
        "dev": env.get("REFEREE_DEV") == "1",
    }


def _network(entry: str):
    """An address or network in REFEREE_WEBHOOK_HOSTS (`127.0.0.1`, `10.0.0.0/8`, `::1`), or None."""
    try:
        return ipaddress.ip_network(entry.strip("[]"), strict=False)
    except ValueError:
        return None


def _allowed_name(entry: str) -> str:
    try:
        return _host(entry)
    except TargetRefused:
        return entry


class TargetRefused(ValueError):
    """A webhook URL that points where the referee may not send (SSRF guard)."""


class Target(NamedTuple):
    """A checked webhook URL: where to connect (the address that was checked) and what to ask."""

    scheme: str
    host: str        # for the Host header and TLS: ASCII (IDNA), lower case
    address: str     # the IP address the check resolved and approved
    port: int
    path: str
    url: str         # the URL as normalised: what is stored, and what is connected to


_NAME = re.compile(r"[a-z0-9_-]+(\.[a-z0-9_-]+)*\.?")
_NUMERIC = re.compile(r"[0-9a-fx.]+")
_PATH_SAFE = "/%:@!$&'()*+,;=-._~"


def _host(name: str) -> str:
    """The host as the connection will use it: an IP address in its canonical spelling
    (`127.1`, `0x7f000001` and `2130706433` are all 127.0.0.1), or an ASCII name (IDNA:
    `\u24dbocalhost` is `localhost`)."""
    try:
        return str(ipaddress.ip_address(name))
    except ValueError:
        pass
    try:
        ascii_name = name.encode("idna").decode("ascii").lower()
    except UnicodeError:
        raise TargetRefused(f"{json.dumps(name)} is not a host name") from None
    if _NUMERIC.fullmatch(ascii_name):  # the legacy IPv4 spellings, read as the resolver reads them
        try:
            return socket.inet_ntoa(socket.inet_aton(ascii_name))
        except OSError:
            pass
    if not _NAME.fullmatch(ascii_name):
        raise TargetRefused(f"{json.dumps(name)} is not a host name")
    return ascii_name


def _parse(url: str) -> tuple[str, str, int, str, str]:
    """(scheme, host, port, path, normalised URL), or TargetRefused."""
    try:
        parts = urlsplit(url.strip())
        port = parts.port
    except ValueError as exc:  # a bad port or bracket
        raise TargetRefused(f"not a URL: {exc}") from None
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise TargetRefused("a webhook URL is http:// or https:// with a host")
    if parts.username is not None or parts.password is not None:
        raise TargetRefused("a webhook URL carries no user name or password")
    host = _host(parts.hostname)
    default = 443 if parts.scheme == "https" else 80
    port = port or default
    path = quote(parts.path or "/", safe=_PATH_SAFE) + (f"?{quote(parts.query, safe=_PATH_SAFE + '?')}"
                                                          if parts.query else "")
    netloc = f"[{host}]" if ":" in host else host
    netloc += "" if port == default else f":{port}"
    return parts.scheme, host, port, path, f"{parts.scheme}://{netloc}{path}"


def _public(address) -> bool:
    return address.is_global and not address.is_multicast


# IPv6 networks whose addresses carry an IPv4 address, and where it sits (RFC 6052's prefix
# lengths): on a network that translates them, a connection to one reaches the IPv4 address.
_EMBEDDING = [(ipaddress.ip_network(net), at) for net, at in (
    ("::ffff:0:0/96", (96,)),           # IPv4-mapped
    ("::ffff:0:0:0/96", (96,)),         # IPv4-translated (SIIT)
    ("::/96", (96,)),                   # IPv4-compatible (deprecated)
    ("64:ff9b::/96", (96,)),            # NAT64, the well-known prefix
    ("64:ff9b:1::/48", (48, 56, 64, 96)),  # NAT64, local use: any prefix length from /48
    ("2002::/16", (16,)),               # 6to4
)]


def _rfc6052(n: int, at: int) -> ipaddress.IPv4Address:
    """The IPv4 address at bit `at` of an IPv6 address (as an int), skipping bits 64-71
    (RFC 6052's reserved octet) when it spans them."""
    without_u = ((n >> 64) << 56) | (n & ((1 << 56) - 1))  # 120 bits: the reserved octet gone
    start = at if at <= 64 else at - 8
    return ipaddress.IPv4Address((without_u >> (120 - start - 32)) & 0xFFFFFFFF)


def embedded(address) -> list:
    """The IPv4 addresses an IPv6 address stands for (NAT64, 6to4, mapped, compatible,
    translated, Teredo's server and client); [] for any other address."""
    if address.version != 6:
        return []
    if address.teredo:
        return list(address.teredo)
    n = int(address)
    for net, positions in _EMBEDDING:
        if address in net:
            if net.prefixlen == 16:  # 6to4: the IPv4 address follows the prefix
                return [ipaddress.IPv4Address((n >> 80) & 0xFFFFFFFF)]
            return [_rfc6052(n, at) for at in positions]
    return []


def _allowed(address, networks: list) -> bool:
    """A public address, or one the operator allows; an IPv6 address that carries an IPv4
    one is that IPv4 address (each of them, when where it sits is the network's choice)."""
    if any(address in net for net in networks):
        return True
    inner = embedded(address)
    if inner:
        return all(_public(v4) or any(v4 in net for net in networks) for v4 in inner)
    return _public(address)


def check_target(url: str, conf: dict | None = None) -> Target:
    """Public addresses only, unless REFEREE_WEBHOOK_HOSTS names the host (or holds the
    address or its network), or REFEREE_DEV=1: loopback, private, link-local, unspecified
    and multicast addresses are refused, in every spelling, IPv4 inside IPv6 included. The answer names the resolved
    address, so the connection goes where the check looked (no second lookup that a name
    could answer differently)."""
    conf = allowed_targets() if conf is None else conf
    scheme, host, port, path, normal = _parse(url)
    try:
        infos = socket.getaddrinfo(host, port, proto=socket.IPPROTO_TCP)
    except (socket.gaierror, UnicodeError, ValueError):
        raise TargetRefused(f"cannot resolve {json.dumps(host)}") from None
    addresses = [ipaddress.ip_address(info[4][0].split("%")[0]) for info in infos]
    allowed = conf["dev"] or host in conf["hosts"] or all(_allowed(a, conf["networks"]) for a in addresses)
    if not addresses or not allowed:
        raise TargetRefused(f"{json.dumps(host)} is not a public address, and REFEREE_WEBHOOK_HOSTS does not allow it")
    return Target(scheme, host, str(addresses[0]), port, path, normal)
