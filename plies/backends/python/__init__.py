"""The Python back end: the IR written as Python source, with a line map back to the game file."""
