"""Pillow renderers: view dicts in, PNG bytes out. No Discord, no database."""
