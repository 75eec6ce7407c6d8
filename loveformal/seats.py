"""Seat names: seats are numbered 0..n-1 inside the engine and shown as ``P1``..``Pn``."""

from __future__ import annotations

from loveformal.literals import echo, whole_number


def seat_name(seat: int) -> str:
    """``0`` -> ``"P1"``."""
    return f"P{seat + 1}"


def parse_seat(text: str, players: int) -> int:
    """``"P2"`` -> ``1``; raises :class:`ValueError` naming the seats that exist."""
    t = text.strip().upper()
    n = whole_number(t[1:], 3) if t.startswith("P") else None
    if n is not None and 1 <= n <= players:
        return n - 1
    raise ValueError(f"unknown seat {echo(text)} (seats are P1..P{players})")
