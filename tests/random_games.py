"""Random games for the fuzzers: small, well typed mostly, and ending by a move counter.

`generate(seed)` writes a game file that uses what the shipped games do not (their
mutations are corpus.py's): `while`, `break`, `continue`, `let`, `again`, chance events
started anywhere in a move, definitions with parameters, `div` and `mod` of negative numbers,
aggregates over empty domains, `liberties`, `connects`, `threats` and `line` on small grids,
arrays indexed by players, `ordered by` and `prefer`. Every move adds one to a counter `t`
that ends the game at a random small number, so every game is finite, and small: its tree has
at most a few thousand positions (with ``endless``, no counter: play may go on for ever, and
an `endless` line says what that is worth). Many of the games break their own rules
somewhere (an index out of range, a value past its declared range, a division by zero), which
is what the back ends must then report alike; a few are refused by the checker.
"""

from __future__ import annotations

import random

SYMS = ["e", "x", "o"]          # grid symbols; x and o are the players too


class Gen:
    def __init__(self, rng: random.Random, chance: bool = False, endless: bool = False,
                 symmetric: bool = False, setup: bool = False, evaluate: bool = False):
        self.r = rng
        self.evaluate = evaluate  # an `evaluate` line (drawn last too)
        self.symmetric = symmetric  # a `symmetry` line (drawn last: the rest is the same)
        self.setup = setup  # a `setup` block (drawn last too, written after the state)
        self.vars = {}      # name -> kind: ("range", lo, hi) ("int",) ("bool",) ("arr", n, lo, hi)
                            # ("parr",) ("grid", R, C) ("player",) ("sym",)
        self.locals = []    # stack of (name, kind) for binders / lets / loop vars
        self.chance = chance
        self.endless = endless  # no move counter: play may go on for ever (`endless` says)
        self.names = 0
        self.defs = []      # (name, kind, params)

    def fresh(self, prefix="v"):
        self.names += 1
        return f"{prefix}{self.names}"

    # ---- expressions --------------------------------------------------------------------
    def pick(self, pred):
        c = [n for n, k in self.locals if pred(k)] + [n for n, k in self.vars.items() if pred(k)]
        return self.r.choice(c) if c else None

    def int_expr(self, d=0):
        r = self.r
        if d > 2 or r.random() < 0.3:
            choice = r.random()
            v = self.pick(lambda k: k[0] in ("range", "int", "local"))
            if v and choice < 0.6:
                return v
            return str(r.randint(-2, 4)) if r.random() < 0.8 else f"({r.randint(-3, -1)})"
        k = r.randint(0, 17)
        if k == 0:
            a = self.pick(lambda k: k[0] == "arr")
            if a:
                return f"{a}[{self.index_expr(a, d + 1)}]"
        if k == 1:
            a = self.pick(lambda k: k[0] == "parr")
            if a:
                return f"{a}[{self.player_expr(d + 1)}]"
        if k in (2, 3, 4):
            op = r.choice(["+", "-", "*", "div", "mod", "+", "-"])
            return f"({self.int_expr(d + 1)} {op} {self.int_expr(d + 1)})"
        if k == 5:
            return f"abs({self.int_expr(d + 1)})"
        if k == 6:
            return f"{r.choice(['min', 'max'])}({self.int_expr(d + 1)}, {self.int_expr(d + 1)})"
        if k == 7:
            test, yes, no = self.bool_expr(d + 1), self.int_expr(d + 1), self.int_expr(d + 1)
            return f"(if {test} then {yes} else {no})"
        if k == 8:
            n = self.fresh("l")
            e = self.int_expr(d + 1)
            self.locals.append((n, ("local",)))
            body = self.int_expr(d + 1)
            self.locals.pop()
            return f"(let {n} = {e} in {body})"
        if k == 9:
            return self.aggregate(r.choice(["sum", "min", "max"]), self.int_expr, d)
        if k == 10:
            return self.aggregate("count", self.bool_expr, d)
        if k == 11:
            g = self.pick(lambda k: k[0] == "grid")
            if g:
                return f"threats({g}, {r.choice(SYMS)}, {r.randint(2, 3)}, {r.choice(SYMS)})"
        if k == 12:
            g = self.pick(lambda k: k[0] == "grid")
            if g:
                row, column = self.int_expr(d + 1), self.int_expr(d + 1)
                return f"liberties({g}, {row}, {column}, {r.choice(SYMS)})"
        if k == 13:
            a = self.pick(lambda k: k[0] in ("arr",))
            if a:
                return f"len({a})"
        if k == 14:
            return f"(-{self.int_expr(d + 1)})"
        if k == 15 and self.defs:
            ints = [x for x in self.defs if x[1] == "int"]
            if ints:
                name, _, params = r.choice(ints)
                if not params:
                    return name
                return f"{name}({', '.join(self.int_expr(d + 1) for _ in params)})"
        if k == 16:
            g = self.pick(lambda k: k[0] == "grid")
            if g:
                return f"{r.choice(['rows', 'cols'])}({g})"
        return self.int_expr(d + 3)

    def aggregate(self, word: str, body, d: int) -> str:
        """``(word i in D: body)`` with a fresh name bound over a random domain."""
        name = self.fresh("i")
        domain = self.domain(d + 1)
        self.locals.append((name, ("local",)))
        inner = body(d + 1)
        self.locals.pop()
        return f"({word} {name} in {domain}: {inner})"

    def comparison(self, d: int) -> str:
        left, operator = self.int_expr(d), self.r.choice(["<", "<=", ">", ">=", "==", "!="])
        return f"{left} {operator} {self.int_expr(d)}"

    def index_expr(self, a, d):
        n = self.vars[a][1]
        if self.r.random() < 0.85:
            v = self.pick(lambda k: k[0] == "local")
            if v and self.r.random() < 0.5:
                return f"{v} mod {n}" if self.r.random() < 0.5 else v
            return str(self.r.randint(0, n - 1))
        return self.int_expr(d)

    def player_expr(self, d=0):
        r = self.r.random()
        if r < 0.4:
            return "turn"
        if r < 0.6:
            return "other(turn)"
        v = self.pick(lambda k: k[0] == "player")
        if v and r < 0.8:
            return v
        return self.r.choice(["x", "o"])

    def sym_expr(self, d=0):
        g = self.pick(lambda k: k[0] == "grid")
        if g and self.r.random() < 0.6:
            return f"{g}[{self.cell(g, d)}]"
        v = self.pick(lambda k: k[0] == "sym")
        if v and self.r.random() < 0.5:
            return v
        if not self.pick(lambda k: k[0] in ("grid", "sym")):
            return self.r.choice(["x", "o"])
        return self.r.choice(SYMS)

    def cell(self, g, d):
        R, C = self.vars[g][1:]
        ls = [n for n, k in self.locals if k == ("cell", g)]
        if ls and self.r.random() < 0.7:
            a, b = ls[-1].split(",")
            return f"{a}, {b}"
        if self.r.random() < 0.85:
            return f"{self.r.randint(0, R - 1)}, {self.r.randint(0, C - 1)}"
        return f"{self.int_expr(d + 1)}, {self.int_expr(d + 1)}"

    def bool_expr(self, d=0):
        r = self.r
        if d > 2 or r.random() < 0.2:
            v = self.pick(lambda k: k[0] == "bool")
            if v and r.random() < 0.6:
                return v
            return r.choice(["true", "false"]) if r.random() < 0.3 else \
                self.comparison(d + 2)
        k = r.randint(0, 12)
        if k in (0, 1, 2):
            return self.comparison(d + 1)
        if k == 3:
            return f"({self.bool_expr(d + 1)} {r.choice(['and', 'or'])} {self.bool_expr(d + 1)})"
        if k == 4:
            return f"not {self.bool_expr(d + 1)}"
        if k == 5:
            return f"{self.sym_expr(d + 1)} {r.choice(['==', '!='])} {self.sym_expr(d + 1)}"
        if k == 6:
            return f"{self.player_expr(d + 1)} {r.choice(['==', '!='])} {self.player_expr(d + 1)}"
        if k == 7:
            return self.aggregate(r.choice(["any", "all"]), self.bool_expr, d)
        if k == 8:
            g = self.pick(lambda k: k[0] == "grid")
            if g:
                return f"line({g}, {r.choice(['x', 'o', 'e'])}, {r.randint(2, 3)})"
        if k == 9:
            g = self.pick(lambda k: k[0] == "grid")
            if g:
                return f"connects({g}, {r.choice(['x', 'o'])}, top, bottom)"
        if k == 10:
            bools = [x for x in self.defs if x[1] == "bool"]
            if bools:
                name, _, params = r.choice(bools)
                if not params:
                    return name
                return f"{name}({', '.join(self.int_expr(d + 1) for _ in params)})"
        if k == 11:
            g = self.pick(lambda k: k[0] == "grid")
            if g:
                n = self.fresh("r"), self.fresh("c")
                self.locals.append((",".join(n), ("cell", g)))
                body = self.bool_expr(d + 1)
                self.locals.pop()
                return f"({r.choice(['any', 'all'])} {n[0]}, {n[1]} in cells({g}): {body})"
        return self.bool_expr(d + 3)

    def domain(self, d=0):
        r = self.r
        k = r.random()
        a = self.pick(lambda k: k[0] == "arr")
        if a and k < 0.3:
            return f"indices({a})"
        if k < 0.8:
            lo = r.randint(-1, 1)
            return f"{lo}..{lo + r.randint(0, 3)}"
        return f"0..{self.int_expr(d + 2)}"

    # ---- statements ---------------------------------------------------------------------
    def assignable(self):
        return [n for n, k in self.vars.items()] + [n for n, k in self.locals if k[0] == "letvar"]

    def target_and_value(self, d):
        n = self.r.choice(self.assignable())
        k = self.vars.get(n) or ("int",)
        if k[0] in ("range", "int"):
            return n, "int"
        if k[0] == "bool":
            return n, "bool"
        if k[0] == "arr":
            return f"{n}[{self.index_expr(n, d)}]", "int"
        if k[0] == "parr":
            return f"{n}[{self.player_expr(d)}]", "int"
        if k[0] == "grid":
            v = self.r.choice(SYMS + ["turn"])
            return f"{n}[{self.cell(n, d)}]", ("sym", v)
        if k[0] == "player":
            return n, "player"
        if k[0] == "sym":
            return n, ("sym", self.r.choice(SYMS))
        return n, "int"

    def value(self, t, d):
        if t == "int":
            return self.int_expr(d)
        if t == "bool":
            return self.bool_expr(d)
        if t == "player":
            return self.player_expr(d)
        if t[0] == "sym":
            return t[1] if self.r.random() < 0.6 else self.sym_expr(d)

    def stmt(self, d, in_loop, ind):
        r = self.r
        pad = "  " * ind
        k = r.random()
        if d >= 2:
            k = r.random() * 0.5
        if k < 0.45:
            t, ty = self.target_and_value(d)
            if ty == "int" and r.random() < 0.4:
                return [f"{pad}{t} {r.choice(['+=', '-=', '*='])} {self.int_expr(1)}"]
            return [f"{pad}{t} = {self.value(ty, 1)}"]
        if k < 0.5 and in_loop:
            return [f"{pad}{r.choice(['break', 'continue'])}"]
        if k < 0.6:
            out = [f"{pad}if {self.bool_expr(1)} {{"] + self.block(d + 1, in_loop, ind + 1)
            if r.random() < 0.4:
                out += [f"{pad}}} else {{"] + self.block(d + 1, in_loop, ind + 1)
            return out + [f"{pad}}}"]
        if k < 0.7:
            n = self.fresh("f")
            dom = self.domain(1)
            self.locals.append((n, ("local",)))
            out = [f"{pad}for {n} in {dom} {{"] + self.block(d + 1, True, ind + 1) + [f"{pad}}}"]
            self.locals.pop()
            return out
        if k < 0.75:
            n = self.fresh("w")
            # a bounded while: a local counter
            self.locals.append((n, ("local",)))
            body = self.block(d + 1, True, ind + 1)
            self.locals.pop()
            return [f"{pad}let {n} = {r.randint(0, 3)}", f"{pad}while {n} > 0 {{",
                    f"{pad}  {n} -= 1"] + body + [f"{pad}}}"]
        if k < 0.82:
            n = self.fresh("t")
            out = [f"{pad}let {n} = {self.int_expr(1)}"]
            self.locals.append((n, ("local",)))
            self.pending_lets.append(n)
            return out
        if k < 0.88 and not in_loop:
            if r.random() < 0.5:
                return [f"{pad}again"]
            return [f"{pad}if {self.bool_expr(1)} {{", f"{pad}  again", f"{pad}}}"]
        if k < 0.95 and self.chance and self.events:
            return [f"{pad}chance {r.choice(self.events)}"]
        t, ty = self.target_and_value(d)
        return [f"{pad}{t} = {self.value(ty, 1)}"]

    def block(self, d, in_loop, ind):
        saved = len(self.locals)
        saved_p = self.pending_lets
        self.pending_lets = []
        out = []
        for _ in range(self.r.randint(1, 3)):
            out += self.stmt(d, in_loop, ind)
        del self.locals[saved:]
        self.pending_lets = saved_p
        return out

    def nothing(self) -> str:
        """A statement that changes nothing (an outcome needs one)."""
        if not self.endless:
            return "t += 0"
        name = next(iter(self.vars))
        return f"{name} = {name}"

    # ---- the game -----------------------------------------------------------------------
    def game(self):
        r = self.r
        self.pending_lets = []
        lines = [f"game g{r.randint(0, 999)}", "", "players x max, o min", "", "state"]
        K = r.randint(2, 5)
        if not self.endless:
            lines.append(f"  t: 0..{K} = 0")
        for _ in range(r.randint(2, 5)):
            kind = r.choice(["range", "range", "int", "bool", "arr", "parr", "grid", "player",
                             "sym"])
            n = self.fresh("s")
            if kind == "range":
                lo = r.randint(-3, 0); hi = lo + r.randint(1, 6)
                self.vars[n] = ("range", lo, hi)
                lines.append(f"  {n}: {lo}..{hi} = {r.randint(lo, hi)}")
            elif kind == "int":
                self.vars[n] = ("int",)
                lines.append(f"  {n}: int = {r.randint(-5, 5)}")
            elif kind == "bool":
                self.vars[n] = ("bool",)
                lines.append(f"  {n}: bool = {r.choice(['true', 'false'])}")
            elif kind == "arr":
                m = r.randint(1, 4); lo = r.randint(-2, 0); hi = lo + r.randint(2, 6)
                self.vars[n] = ("arr", m, lo, hi)
                if r.random() < 0.7:
                    init = f"[{', '.join(str(r.randint(lo, hi)) for _ in range(m))}]"
                else:
                    init = str(r.randint(lo, hi))
                lines.append(f"  {n}: array[{m}] of {lo}..{hi} = {init}")
            elif kind == "parr":
                self.vars[n] = ("parr",)
                first, second = r.randint(-2, 2), r.randint(-2, 2)
                lines.append(f"  {n}: array[player] of int = [{first}, {second}]")
            elif kind == "grid":
                R, C = r.randint(1, 3), r.randint(2, 3)
                self.vars[n] = ("grid", R, C)
                lines.append(f"  {n}: grid[{R}, {C}] of {{e, x, o}} = e")
            elif kind == "player":
                self.vars[n] = ("player",)
                lines.append(f"  {n}: player = {r.choice(['x', 'o'])}")
            else:
                self.vars[n] = ("sym",)
                lines.append(f"  {n}: {{e, x, o}} = {r.choice(SYMS)}")
        lines.append("")
        after_state = len(lines)
        for _ in range(r.randint(0, 2)):
            n = self.fresh("d")
            ty = r.choice(["int", "bool"])
            np = r.randint(0, 1)
            params = [self.fresh("p") for _ in range(np)]
            for p in params:
                self.locals.append((p, ("local",)))
            body = self.int_expr(0) if ty == "int" else self.bool_expr(0)
            for p in params:
                self.locals.pop()
            ps = f"({', '.join(p + ': int' for p in params)})" if params else ""
            lines.append(f"def {n}{ps} = {body}")
            self.defs.append((n, ty, params))
        lines.append("")
        self.events = []
        if self.chance:
            for _ in range(r.randint(1, 2)):
                n = self.fresh("ev")
                self.events.append(n)
        for _ in range(r.randint(1, 3)):
            n = self.fresh("m")
            binders = []
            for _ in range(r.randint(0, 2)):
                b = r.random()
                g = self.pick(lambda k: k[0] == "grid")
                if b < 0.3 and g and not binders:
                    a, c = self.fresh("r"), self.fresh("c")
                    self.locals.append((f"{a},{c}", ("cell", g)))
                    order = f" ordered by {self.int_expr(2)}" if r.random() < 0.2 else ""
                    binders.append(f"CELLS{a}, {c}) in cells({g}){order}")
                    break
                p = self.fresh("b")
                dom = self.domain(2)
                order = ""
                if r.random() < 0.2:
                    self.locals.append((p, ("local",)))
                    order = f" ordered by {self.int_expr(2)}"
                    self.locals.pop()
                binders.append(f"{p} in {dom}{order}")
                self.locals.append((p, ("local",)))
            if binders and binders[0].startswith("CELLS"):
                head = f"move {n}(" + binders[0][5:]
            else:
                head = f"move {n}" + (f"({', '.join(binders)})" if binders else "")
            if r.random() < 0.7:
                head += f" when {self.bool_expr(0)}"
            body = self.block(0, False, 1)
            self.locals.clear()
            lines += [head + " {"] + ([] if self.endless else ["  t += 1"]) + body + ["}", ""]
        for ev in self.events:
            if r.random() < 0.5:
                b = self.fresh("o")
                hi = r.randint(1, 3)
                self.locals.append((b, ("local",)))
                body = self.block(1, False, 1)
                self.locals.clear()
                body = [line for line in body if "again" not in line and "chance" not in line] \
                    or ["  " + self.nothing()]
                lines += [f"chance {ev}({b} in 1..{hi}) {{"] + body + ["}", ""]
            else:
                outs = []
                ps = r.choice([["1/2", "1/2"], ["1/3", "2/3"], ["1/4", "1/4", "1/2"], ["1"]])
                for i, p in enumerate(ps):
                    body = self.block(1, False, 2)
                    self.locals.clear()
                    body = [line for line in body if "again" not in line and "chance" not in line] \
                        or ["    " + self.nothing()]
                    outs += [f"  h{i} {p} {{"] + body + ["  }"]
                lines += [f"chance {ev} {{"] + outs + ["}", ""]
        if self.endless:
            lines.append(f"terminal {self.bool_expr(1)}")
        else:
            lines.append(f"terminal t == {K} or {self.bool_expr(1)}")
        lines.append(f"utility {self.int_expr(0)}")
        lo, hi = -2, 2
        if r.random() < 0.3:
            lo = r.randint(-20, 0)
            hi = lo + r.randint(1, 30)
            lines.append(f"bounds {lo}..{hi}")
        if r.random() < 0.2:
            lines.append(f"prefer {self.int_expr(1)}")
        if self.endless:
            lines.append(f"endless {r.randint(lo, hi)}")
        if self.symmetric:
            lines += self.symmetries()
        if self.evaluate:
            lines.append(f"evaluate {self.int_expr(1)}")
        if self.setup:
            lines[after_state:after_state] = self.setup_block()
        return "\n".join(lines) + "\n"

    def setup_block(self) -> list[str]:
        """`setup { ... }`: statements as a move's (without `again` or `chance`, which it
        cannot hold), and now and then the second player to move first."""
        body = [line for line in self.block(0, False, 1)
                if "again" not in line and "chance" not in line]
        if self.r.random() < 0.3:
            body.insert(0, f"  turn = {self.r.choice(['x', 'o'])}")
        self.locals.clear()
        return ["setup {", *body, "}", ""]

    def symmetries(self) -> list[str]:
        """One or two `symmetry` lines turning the state's grids and arrays over: each a
        rearrangement of cells, seldom one the rules respect (``validate --explore`` says)."""
        r = self.r
        turnable = [(n, k) for n, k in self.vars.items() if k[0] in ("grid", "arr")]
        lines = []
        for number in range(r.randint(1, 2) if turnable else 0):
            maps = []
            for name, kind in r.sample(turnable, r.randint(1, len(turnable))):
                if kind[0] == "arr":
                    maps.append(f"{name}[i] -> {name}[{kind[1] - 1} - i]")
                    continue
                rows, cols = kind[1], kind[2]
                shapes = [f"{name}[r, c] -> {name}[r, {cols - 1} - c]",
                          f"{name}[r, c] -> {name}[{rows - 1} - r, c]",
                          f"{name}[r, c] -> {name}[{rows - 1} - r, {cols - 1} - c]"]
                if rows == cols:
                    shapes += [f"{name}[r, c] -> {name}[c, r]",
                               f"{name}[r, c] -> {name}[c, {rows - 1} - r]"]
                maps.append(r.choice(shapes))
            lines.append(f"symmetry y{number}: {', '.join(maps)}")
        return lines


def generate(seed: int, chance: bool | None = None, endless: bool = False,
             symmetric: bool = False, setup: bool = False, evaluate: bool = False) -> str:
    """The game of ``seed``; with ``endless``, without the move counter (its play may go on
    for ever, which its `endless` line values); with ``symmetric``, the same game with one or
    two `symmetry` lines after it (where it has a grid or an array); with ``setup``, with a
    `setup` block building its starting position; with ``evaluate``, with an `evaluate` line
    (the estimate of a depth-limited search)."""
    rng = random.Random(seed)
    if chance is None:
        chance = rng.random() < 0.3
    return Gen(rng, chance, endless, symmetric, setup, evaluate).game()

