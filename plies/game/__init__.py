"""The game model: a file loaded (checked, compiled, cached) into the protocol the solvers use."""
