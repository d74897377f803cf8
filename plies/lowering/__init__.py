"""The lowered intermediate representation between the checker and the code emitters."""

from plies.lowering.lower import Unsupported, lower

__all__ = ["Unsupported", "lower"]
