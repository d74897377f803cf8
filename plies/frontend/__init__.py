"""The front end: a game file's text to a checked game (parse, syntax tree, checker, types).

It knows nothing of the lowering, the back ends or the commands above it.
"""
