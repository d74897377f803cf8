"""How large a game file may make things while it is checked and compiled."""

# Limits: a game file is small, and these keep a hostile or mistaken one from allocating
# without bound while it is checked and generated. Each is far above what exact search can solve.
MAX_FILE_BYTES = 1_000_000
"""Game files are short: a larger one is refused before it is parsed (characters), and a file
of more than four times as many bytes before it is read whole (the loader)."""
MAX_DIAGNOSTICS = 100
"""Most problems reported for one file; after that the checker only says there are more."""
MAX_STATE_VALUES = 10_000
"""Most values a state holds (a 100 x 100 grid)."""
MAX_CONSTANT = 10**18
"""Largest magnitude of a value computed before the game starts (as for literals, 18 digits)."""
MAX_BLOCK_DEPTH = 40
"""Deepest nesting of statement blocks (the generated Python must stay within its indent limit)."""
MAX_LOOP_DEPTH = 12
"""Most loops nested in one function: a move's parameters plus nested `for` (Python allows 20)."""
MAX_MOVE_COMBINATIONS = 1_000_000
"""Most combinations of parameter values one move or uniform chance event lists in a position
(every position lists them all): three 0..99 parameters, or a from-to-arrow move on a 10 x 10
board. A domain whose size the checker cannot bound counts as 10,000 values."""
MAX_DEFINITION_DEPTH = 50
"""Longest chain of definitions each using the next (`def d2 = d1 + 1`, `def d1 = d0 + 1`, ...):
the compiler writes a short definition in place where it is used, through the whole chain."""
