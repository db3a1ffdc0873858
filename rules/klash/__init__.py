"""Klash! Sangue & Sabbia: the gladiator auction, team building and the 8-Hourglass arena match."""
from .engine import KlashEngine
from .pack import load_pack_text, load_sample_pack

ENGINE = KlashEngine()

__all__ = ["ENGINE", "KlashEngine", "load_pack_text", "load_sample_pack"]
