"""What a reader without the tournament's key may see (pure functions on JSON data).

Cards not yet played and a hidden trump not yet shown belong to the players; the
key holder (the tournament's scorer) sees everything. A deal that is over is public.
"""
from __future__ import annotations

import copy
from typing import Any

OVER = ("complete", "ended_by_penalty", "redeal")


def _open_deals(verdict: dict) -> set[int]:
    return {i for i, d in enumerate(verdict["deals"]) if d["status"] not in OVER}


def public_record(record: dict, verdict: dict) -> dict:
    """The record with the hands and any unshown hidden card of unfinished deals removed."""
    hide = _open_deals(verdict)
    if not hide:
        return record
    out = copy.deepcopy(record)
    for i in hide:
        deal = out["deals"][i]
        deal.pop("hands", None)
        trump = deal.get("trump") or {}
        if "hidden" in trump and verdict["deals"][i]["trump"] and not verdict["deals"][i]["trump"].get("revealed"):
            deal["trump"] = {"hidden": None}
    return out


def public_deal(deal: dict) -> dict:
    """One deal verdict as a reader without the key sees it."""
    if deal["status"] in OVER:
        return deal
    deal = copy.deepcopy(deal)
    trump = deal.get("trump")
    if trump and trump.get("mode") in ("hidden", "band") and not trump.get("revealed"):
        trump.pop("card", None)
        trump["suit"] = None
    # A breach proven by the hand would tell what the player still holds.
    deal["violations"] = [v for v in deal["violations"] if v.get("proof") != "hand"]
    return deal


def public_verdict(verdict: dict) -> dict:
    hide = _open_deals(verdict)
    if not hide:
        return verdict
    out = dict(verdict)
    out["deals"] = [public_deal(d) if i in hide else d for i, d in enumerate(verdict["deals"])]
    if out.get("next") and out["next"].get("to_play") is not None:
        nxt = dict(out["next"])
        nxt["legal"] = None
        for flag in ("reveal", "face_down", "legal_after_reveal"):
            nxt.pop(flag, None)
        out["next"] = nxt
    return out


def public_violations(verdict: dict) -> list[tuple[int, dict[str, Any]]]:
    """(deal index, violation) pairs that may be published now."""
    out = []
    for i, d in enumerate(verdict["deals"]):
        shown = d if d["status"] in OVER else public_deal(d)
        out.extend((i, v) for v in shown["violations"])
    return out
