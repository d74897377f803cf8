"""The writers of the Python code generator (``plies/backends/python/compiler.py``), one module per
family of generated functions, all reading the lowered game (``plies.lowering.ir``)."""
