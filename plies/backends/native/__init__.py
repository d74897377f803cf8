"""The native back end: a game's rules and searches compiled to C (see docs/native.md)."""
