"""Hand-written pure-Python solvers: what plies's generated code is measured against.

Each module is the straightforward code a good Python programmer would write for one game:
a tuple board, the same move order as the game file, and the same node counting as the plies
solvers (every call of the recursive function is a node, the root included).
"""
