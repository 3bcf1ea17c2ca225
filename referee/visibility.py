"""What a reader without the tournament's key may see (pure functions on JSON data).

Cards not yet played and a hidden trump not yet shown belong to the players; the
key holder (the tournament's scorer) sees everything. A deal that is over is public.
"""
from __future__ import annotations

import copy
from typing import Any

OVER = ("complete", "ended_by_penalty", "redeal")


def open_deals(verdict: dict) -> set[int]:
    return {i for i, d in enumerate(verdict["deals"]) if d["status"] not in OVER}


def public_record(record: dict, verdict: dict, also: set[int] = frozenset()) -> dict:
    """The record with what the table does not know of unfinished deals removed: the hands,
    an unshown hidden card, and the faces of face-down cards. `also`: deals to hide as well
    (those the current revision shows unfinished, when an older revision is read)."""
    hide = (open_deals(verdict) | set(also)) & set(range(len(record["deals"])))
    if not hide:
        return record
    out = copy.deepcopy(record)
    for i in hide:
        deal = out["deals"][i]
        deal.pop("hands", None)
        trump = deal.get("trump") or {}
        shown = verdict["deals"][i]["trump"] if i < len(verdict["deals"]) else None
        if "hidden" in trump and not (shown and shown.get("revealed") and i not in also):
            deal["trump"] = {"hidden": None}
        for event in deal.get("events", []):
            if event.get("face_down"):
                event["play"] = None
    return out


def public_deal(deal: dict, force: bool = False) -> dict:
    """One deal verdict as a reader without the key sees it (`force`: hide as if unfinished)."""
    if deal["status"] in OVER and not force:
        return deal
    deal = copy.deepcopy(deal)
    trump = deal.get("trump")
    if trump and trump.get("mode") in ("hidden", "band") and (not trump.get("revealed") or force):
        trump.pop("card", None)
        trump["suit"] = None
        trump.pop("turned_up_at_end", None)
        if force:
            trump["revealed"] = None
    # A breach proven by the hand would tell what the player still holds.
    deal["violations"] = [v for v in deal["violations"] if v.get("proof") != "hand"]
    for trick in deal["tricks"]:  # a face-down card is seen from the back until the deal ends
        for card in trick["cards"]:
            if card.get("face_down"):
                card["card"] = None
    for entry in deal.get("unproven", []):
        if entry.get("face_down"):
            entry["card"] = None
            entry["message"] = f"seat {entry['seat']} showed out face down at event {entry['event']}"
    return deal


def public_verdict(verdict: dict, also: set[int] = frozenset()) -> dict:
    hide = open_deals(verdict) | (set(also) & set(range(len(verdict["deals"]))))
    if not hide:
        return verdict
    out = dict(verdict)
    out["deals"] = [public_deal(d, i in also) if i in hide else d for i, d in enumerate(verdict["deals"])]
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
