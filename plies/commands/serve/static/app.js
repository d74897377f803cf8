// plies serve: the page. Everything it shows comes from the JSON API (docs/web.md); it keeps
// only the moves played (the position is always asked of the server) and what it has drawn.
"use strict";

const $ = (selector) => document.querySelector(selector);
const SVG = "http://www.w3.org/2000/svg";

const page = {
  game: null,          // GET /api/game
  moves: [],           // the moves from the start to the position shown
  redo: [],            // moves taken back, the next one last
  position: null,      // GET /api/position
  analysis: null,      // GET /api/analysis
  analyses: new Map(), // the analyses seen, by the moves that lead to their position
  token: 0,            // the latest navigation: older answers are dropped
  job: null,           // the strong solve (GET /api/jobs/ID)
  search: null,        // GET /api/explain
  step: 0,             // the step of the search shown
  checkToken: 0,
  diagnostics: [],     // POST /api/check's, for the text in the editor
  edited: false,
  drawn: null,         // the moves of the position last drawn (see redraw)
};

// ---- talking to the server ------------------------------------------------------------------

async function api(path, body) {
  const options = body === undefined ? {} : {
    method: "POST", headers: {"Content-Type": "application/json"}, body: JSON.stringify(body)};
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {  // the server stopped, or the network is down
    return {ok: false, status: 0, data: {message: `error: the server does not answer (${error.message})`}};
  }
  let data = null;
  try { data = await response.json(); } catch (e) { data = {message: `HTTP ${response.status}`}; }
  return {ok: response.ok, status: response.status, data};
}

function movesQuery(moves) {
  return "moves=" + encodeURIComponent(moves.join(" "));
}

function element(tag, attributes = {}, text) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

function svgElement(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value !== null && value !== undefined) node.setAttribute(key, value);
  }
  if (text !== undefined) node.textContent = text;
  return node;
}

// Drawing again keeps the elements that stay. The position is drawn twice, when it arrives and
// when its analysis does: replacing a button between a click's press and its release would lose
// the click. Clicks on moves are handled by their container (see wire), so an element kept is
// only brought up to date: its attributes and its text.
function morph(live, built) {
  if (live.nodeType !== built.nodeType || live.nodeName !== built.nodeName) {
    live.replaceWith(built);
    return;
  }
  if (live.nodeType !== Node.ELEMENT_NODE) {
    if (live.nodeValue !== built.nodeValue) live.nodeValue = built.nodeValue;
    return;
  }
  for (const {name} of [...live.attributes]) if (!built.hasAttribute(name)) live.removeAttribute(name);
  for (const {name, value} of built.attributes) {
    if (live.getAttribute(name) !== value) live.setAttribute(name, value);
  }
  redraw(live, [...built.childNodes]);
}

function redraw(parent, children, keyOf = null) {
  // parent's children become `children`: matched by keyOf where given (a row stays its move's
  // when the order changes), else by place, and only while the same position is shown
  const samePosition = page.drawn === page.moves.join(" ");
  const live = samePosition ? [...parent.childNodes] : [];
  if (!samePosition) parent.textContent = "";
  const byKey = new Map(keyOf ? live.map((node) => [keyOf(node), node]) : []);
  const used = new Set();
  children.forEach((child, k) => {
    const match = keyOf ? byKey.get(keyOf(child)) : live[k];
    if (match === undefined || used.has(match)) {
      parent.insertBefore(child, parent.childNodes[k] || null);
      return;
    }
    used.add(match);
    if (parent.childNodes[k] !== match) parent.insertBefore(match, parent.childNodes[k] || null);
    morph(match, child);
  });
  for (const node of live) if (!used.has(node)) node.remove();
}

// A player named after a colour (Connect Four's red and yellow, Othello's black and white)
// gets pieces of that colour; others are blue (the first player) and red (the second).
const COLOURS = {red: ["#c62828", "#fff"], yellow: ["#f2c200", "#222"], blue: ["#1f5fbf", "#fff"],
                 black: ["#222", "#fff"], white: ["#fafafa", "#222"], green: ["#2e7d32", "#fff"],
                 orange: ["#ef6c00", "#fff"], purple: ["#6a1b9a", "#fff"]};

function paint(node, index, text = false) {
  const player = page.game && page.game.players[index];
  const colour = player && COLOURS[player.name.toLowerCase()];
  if (!colour) return node;
  if (text) node.style.color = colour[0] === "#fafafa" || colour[0] === "#f2c200" ? "#8a6d00" : colour[0];
  else {
    node.style.background = colour[0];
    node.style.color = colour[1];
    if (colour[0] === "#fafafa") node.style.border = "1px solid #555";
  }
  return node;
}

function showMessage(text) {
  $("#message").textContent = text || "";
}

// ---- the game and the position ----------------------------------------------------------------

async function loadGame() {
  const answer = await api("/api/game");
  page.game = answer.data;
  const game = page.game;
  $("#game-name").textContent = game.game;
  const params = Object.entries(game.params).map(([k, v]) => `${k}=${JSON.stringify(v)}`);
  $("#game-params").textContent = params.length ? `(${params.join(", ")})` : "";
  document.title = `${game.game} — plies serve`;
  if (!page.edited) {
    $("#source").value = game.source;
    renderEditor([]);
  }
  $("#algorithm").value = "";
}

async function go(moves, {redo = []} = {}) {
  // redo: the moves taken back, as they are once this position is shown
  const token = ++page.token;
  const answer = await api("/api/position?" + movesQuery(moves));
  if (token !== page.token) return false;
  if (!answer.ok) {
    showMessage(answer.data.message);
    return false;
  }
  showMessage("");
  page.moves = moves.slice();
  page.redo = redo;
  page.position = answer.data;
  page.analysis = page.analyses.get(moves.join(" ")) || null;
  history.replaceState(null, "", moves.length ? "?" + movesQuery(moves) : location.pathname);
  $("#goto-moves").value = moves.join(" ");
  $("#link-text").hidden = true;
  render();
  await fetchAnalysis(token);
  return true;
}

async function fetchAnalysis(token) {
  const key = page.moves.join(" ");
  const answer = await api("/api/analysis?" + movesQuery(page.moves));
  if (token !== page.token) return;
  if (!answer.ok) {
    page.analysis = null;
    render();
    $("#analysis-note").textContent = answer.data.message;
    return;
  }
  const found = answer.data;
  if (found.analysis !== null) page.analyses.set(key, found);
  page.analysis = found;
  render();
  if (found.pending) watchJob(found.pending);
  // earlier positions are looked up only when that is cheap (a solve or a database): analysing
  // each one on its own could take --timeout seconds apiece
  drawHistory(token, found.source === "strong solve" || found.source === "database");
}

function play(move) {
  // the move taken back last, played again, leaves the others to redo
  const again = page.redo.length && page.redo[page.redo.length - 1] === move;
  return go(page.moves.concat([move]), {redo: again ? page.redo.slice(0, -1) : []});
}

function judgedMoves() {
  // move text -> {row (analyze --json's), judged} for the position shown
  const found = new Map();
  const analysis = page.analysis && page.analysis.analysis;
  if (!analysis) return found;
  const judged = new Map((page.analysis.judged || []).map((j) => [j.move, j]));
  for (const row of analysis.moves) found.set(row.move, {row, judged: judged.get(row.move)});
  return found;
}

function valueText(row) {
  return row.value_exact !== null ? row.value_exact : Number(row.value).toPrecision(6);
}

function render() {
  renderTurn();
  renderLastMove();
  renderBoard();
  renderChance();
  renderMoves();
  updateControls();
  page.drawn = page.moves.join(" ");
}

function renderTurn() {
  const position = page.position;
  const turn = $("#turn");
  turn.textContent = "";
  if (!position) return;
  if (position.terminal) {
    turn.append(`Game over: ${position.meaning || position.utility} (utility ${position.utility})`);
    return;
  }
  const who = position.to_move;
  if (who.role === "CHANCE") {
    turn.append(`Chance: ${who.event || "an outcome"}`);
    return;
  }
  const name = paint(element("span", {class: `who p${who.index}`}, who.player), who.index, true);
  turn.append(name, who.player === who.role ? " to move" : ` (${who.role}) to move`);
}

function renderLastMove() {
  // what the move just played was worth, from the analysis of the position before it
  const last = $("#last-move");
  last.textContent = "";
  if (!page.moves.length) return;
  const move = page.moves[page.moves.length - 1];
  const before = page.analyses.get(page.moves.slice(0, -1).join(" "));
  if (!before || !before.analysis || !before.judged.length) return;
  const judged = new Map(before.judged.map((j) => [j.move, j]));
  const rows = before.analysis.moves;
  const played = rows.find((row) => row.move === move);
  if (!played || !judged.get(move) || !judged.get(move).outlook) return;
  let text = `${move}: ${judged.get(move).outlook}`;
  if (played.best) text += " (a best move)";
  else {
    const best = rows.find((row) => row.best);
    text += `; the best was ${best.move}: ${judged.get(best.move).outlook}`;
  }
  last.textContent = text;
  last.dataset.outcome = judged.get(move).outcome;
}

function renderBoard() {
  const board = $("#board");
  const position = page.position;
  if (!position) {
    board.textContent = "";
    return;
  }
  const judged = judgedMoves();
  if (position.board.type === "tree") {
    redraw(board, [drawGameTree(position.board, position, judged)]);
    return;
  }
  const items = [];
  for (const item of position.board.items) {
    const wrap = element("div", {class: "item", "data-item": item.name});
    wrap.append(element("div", {class: "item-name"}, item.name));
    if (item.type === "grid") wrap.append(drawGrid(item, position.moves, judged));
    else if (item.type === "array") wrap.append(drawCounters(item, position.moves, judged));
    else {
      const counters = element("div", {class: "counters"});
      const counter = element("div", {class: "counter" + (item.player !== null ? ` p${item.player}` : "")});
      counter.append(element("span", {class: "value"}, item.value));
      counters.append(counter);
      wrap.append(counters);
    }
    items.push(wrap);
  }
  redraw(board, items);
}

function outcomeOf(judged, move) {
  const found = judged.get(move);
  return found && found.judged && found.judged.outcome ? found.judged.outcome : "unknown";
}

function remotenessOf(judged, move) {
  const found = judged.get(move);
  return found && found.row.remoteness !== null ? String(found.row.remoteness) : "";
}

function drawGrid(item, moves, judged) {
  const wrap = element("div", {class: "grid-wrap"});
  // cells of 52 pixels, smaller for a wide board (Gomoku's 15 columns) so that it fits
  const size = Math.max(22, Math.min(52, Math.floor(470 / item.cols)));
  wrap.style.setProperty("--cell", `${size}px`);
  const cellMoves = new Map();   // "r,c" -> move
  const columnMoves = new Map(); // c -> move
  for (const m of moves) {
    if (!m.cell || m.cell.grid !== item.name) continue;
    if (m.cell.row === null) columnMoves.set(m.cell.col, m.move);
    else cellMoves.set(`${m.cell.row},${m.cell.col}`, m.move);
  }
  if (columnMoves.size) {
    const row = element("div", {class: "column-moves"});
    row.style.gridTemplateColumns = `repeat(${item.cols}, var(--cell))`;
    for (let c = 0; c < item.cols; c++) {
      const move = columnMoves.get(c);
      if (move === undefined) { row.append(element("button", {class: "none", disabled: ""}, "")); continue; }
      const button = element("button", {class: `column-move ${outcomeOf(judged, move)}`,
                                        "data-move": move, "data-col": c,
                                        title: moveTitle(judged, move)},
                             remotenessOf(judged, move) || "▼");
      row.append(button);
    }
    wrap.append(row);
  }
  const grid = element("div", {class: "grid", "data-grid": item.name});
  grid.style.gridTemplateColumns = `repeat(${item.cols}, var(--cell))`;
  for (let r = 0; r < item.rows; r++) {
    for (let c = 0; c < item.cols; c++) {
      const cell = item.cells[r][c];
      const move = cellMoves.get(`${r},${c}`) ?? columnMoves.get(c);
      const button = element("button", {class: "cell" + (move !== undefined ? " playable" : ""),
                                        "data-row": r, "data-col": c, type: "button",
                                        "data-move": move ?? null,
                                        title: move !== undefined ? moveTitle(judged, move) : null});
      if (cell.text !== "") {
        const kind = cell.player !== null ? `p${cell.player}` : (/^-?\d/.test(cell.text) ? "number" : "other");
        // a symbol as the terminal shows it: its name when one letter long, else its initial
        const glyph = kind === "number" || cell.text.length === 1 ? cell.text : cell.text[0].toUpperCase();
        const piece = element("span", {class: `piece ${kind}`, title: cell.text}, glyph);
        button.append(cell.player !== null ? paint(piece, cell.player) : piece);
      } else if (move !== undefined && cellMoves.has(`${r},${c}`) && judged.has(move)) {
        button.append(element("span", {class: `hint ${outcomeOf(judged, move)}`},
                              remotenessOf(judged, move)));
      }
      grid.append(button);
    }
  }
  wrap.append(grid);
  return wrap;
}

function moveTitle(judged, move) {
  const found = judged.get(move);
  if (!found) return move;
  const outlook = found.judged && found.judged.outlook ? `: ${found.judged.outlook}` : "";
  return `${move} (value ${valueText(found.row)}${outlook})`;
}

function drawCounters(item, moves, judged) {
  const counters = element("div", {class: "counters"});
  const played = new Map(moves.filter((m) => m.cell && m.cell.array === item.name)
                              .map((m) => [m.cell.index, m.move]));
  item.values.forEach((value, k) => {
    const player = item.players ? ` p${item.players[k]}` : "";
    const move = played.get(k);
    const counter = element("div", {class: "counter" + player + (move !== undefined ? " playable" : ""),
                                    "data-index": k, "data-move": move ?? null,
                                    title: move !== undefined ? moveTitle(judged, move) : null});
    counter.append(element("span", {class: "label"}, item.labels[k]),
                   element("span", {class: "value"}, value));
    if (move !== undefined) {
      counter.append(element("span", {class: `hint ${outcomeOf(judged, move)}`}, remotenessOf(judged, move) || " "));
    }
    counters.append(counter);
  });
  return counters;
}

function renderChance() {
  const position = page.position;
  const chance = position && !position.terminal && position.to_move.role === "CHANCE";
  $("#chance").hidden = !chance;
  const outcomes = $("#outcomes");
  if (!chance) {
    outcomes.textContent = "";
    return;
  }
  redraw(outcomes, position.moves.map((m) =>
    element("button", {type: "button", "data-move": m.move}, `${m.move} (${m.probability})`)));
}

function fraction(text) {
  const [n, d] = String(text).split("/");
  return Number(n) / (d === undefined ? 1 : Number(d));
}

function roll() {
  const moves = page.position.moves;
  let left = Math.random() * moves.reduce((sum, m) => sum + fraction(m.probability), 0);
  for (const m of moves) {
    left -= fraction(m.probability);
    if (left < 0) return play(m.move);
  }
  return play(moves[moves.length - 1].move);
}

function renderMoves() {
  const body = $("#moves tbody");
  const position = page.position;
  const found = page.analysis;
  const analysis = found && found.analysis;
  $("#verdict").textContent = analysis ? `${analysis.verdict}` +
    (analysis.remoteness !== null ? ` (remoteness ${analysis.remoteness})` : "") : "";
  let note = "";
  if (found && found.pending) note = "The values come when the solve is done.";
  else if (found && found.error) note = found.error.message;
  else if (analysis && analysis.note) note = analysis.note;
  if (analysis) note += (note ? "\n" : "") + `From ${found.source === "database" ? analysis.database : found.source}: ` +
    `${analysis.method}` + (analysis.positions !== null ? `, ${analysis.positions.toLocaleString("en")} positions` : "");
  $("#analysis-note").textContent = note;
  if (!position) {
    body.textContent = "";
    return;
  }
  const judged = judgedMoves();
  const chance = position.to_move && position.to_move.role === "CHANCE";
  $("#moves thead th:last-child").textContent = chance ? "probability" : "for the mover";
  // best first when the values are known (analyze's order), else the game's order
  const order = analysis ? analysis.moves.map((row) => row.move) : position.moves.map((m) => m.move);
  const unknown = found && !found.pending && !analysis ? "?" : "…";  // "…": still coming
  const rows = [];
  for (const move of order) {
    const entry = judged.get(move);
    const row = entry ? entry.row : null;
    const outcome = entry && entry.judged ? entry.judged.outcome || "" : "";
    const tr = element("tr", {class: `${outcome}${row && row.best ? " best" : ""}`, "data-move": move});
    tr.append(element("td", {class: "move"}, move),
              element("td", {class: "value"}, row ? valueText(row) : unknown),
              element("td", {class: "remoteness"}, row ? (row.remoteness === null ? "-" : String(row.remoteness)) : unknown),
              element("td", {class: "outcome"}, chance ? (row ? row.probability : "")
                                                       : (entry && entry.judged ? entry.judged.outlook || outcome : "")));
    rows.push(tr);
  }
  redraw(body, rows, (tr) => tr.dataset.move);
}

function updateControls() {
  $("#undo").disabled = page.moves.length === 0;
  $("#redo").disabled = page.redo.length === 0;
  $("#restart").disabled = page.moves.length === 0;
}

// ---- the value history --------------------------------------------------------------------------

async function drawHistory(token, lookUp) {
  // the analysis of every position on the way here (from the solve: a look-up each)
  const values = [];
  let looked = false;
  for (let k = 0; k <= page.moves.length; k++) {
    const key = page.moves.slice(0, k).join(" ");
    let found = page.analyses.get(key);
    if (!found && !lookUp) { values.push(null); continue; }
    if (!found) {
      const answer = await api("/api/analysis?" + movesQuery(page.moves.slice(0, k)));
      if (token !== page.token) return;
      if (!answer.ok || !answer.data.analysis) { values.push(null); continue; }
      found = answer.data;
      page.analyses.set(key, found);
      looked = true;
    }
    values.push(found.analysis);
  }
  if (token !== page.token) return;
  // the note on the last move reads the analysis before it, which may have come only now (a
  // solve that finished after the move clears them all)
  if (looked) renderLastMove();
  const svg = $("#history");
  svg.textContent = "";
  const width = svg.clientWidth || 400, height = svg.clientHeight || 150;
  const known = values.filter((v) => v !== null).map((v) => Number(v.value));
  const bounds = page.game.bounds ? page.game.bounds.map(fraction) : [];
  let low = Math.min(...known, ...bounds, 0), high = Math.max(...known, ...bounds, 0);
  if (low === high) { low -= 1; high += 1; }
  const left = 46, right = 12, top = 12, bottom = 22;
  const x = (k) => left + (width - left - right) * (page.moves.length ? k / page.moves.length : 0.5);
  const y = (v) => top + (height - top - bottom) * (high - v) / (high - low);
  const players = page.game.players;
  svg.append(svgElement("line", {class: "axis", x1: left, y1: top, x2: left, y2: height - bottom}));
  svg.append(svgElement("line", {class: "zero", x1: left, y1: y(0), x2: width - right, y2: y(0)}));
  svg.append(svgElement("text", {x: 4, y: y(high) + 4}, String(high)));
  svg.append(svgElement("text", {x: 4, y: y(low) + 4}, String(low)));
  if (low < 0 && high > 0) svg.append(svgElement("text", {x: 4, y: y(0) + 4}, "0"));
  const favours = (k) => players[k] ? players[k].name : (k ? "MIN" : "MAX");
  svg.append(svgElement("text", {x: left + 6, y: top + 8}, `↑ better for ${favours(0)}`));
  svg.append(svgElement("text", {x: left + 6, y: height - bottom - 2}, `↓ better for ${favours(1)}`));
  svg.append(svgElement("text", {x: width - right - 40, y: height - 6}, `move ${page.moves.length}`));
  const points = values.map((v, k) => v === null ? null : [x(k), y(Number(v.value))]);
  const path = points.filter((p) => p !== null).map((p, k) => `${k ? "L" : "M"}${p[0]},${p[1]}`).join(" ");
  if (path) svg.append(svgElement("path", {class: "line", d: path}));
  values.forEach((v, k) => {
    if (v === null) return;
    const value = Number(v.value);
    const kind = value > 0 ? "win" : value < 0 ? "lose" : "draw";
    const dot = svgElement("circle", {class: `point ${kind}`, cx: points[k][0], cy: points[k][1], r: 4,
                                      "data-ply": k, "data-value": v.value_exact ?? v.value});
    dot.append(svgElement("title", {}, `after ${k} moves: ${v.verdict}`));
    svg.append(dot);
  });
}

// ---- an explicit game tree (the textbook figures) -------------------------------------------

function treeLayout(nodes, childrenOf, root) {
  // leaves one slot apart, in order; a parent over the middle of its children
  const place = new Map();
  let slot = 0;
  const stack = [[root, 0, false]];
  while (stack.length) {
    const [id, depth, done] = stack.pop();
    const kids = childrenOf(id);
    if (!kids.length) { place.set(id, {x: slot++, depth}); continue; }
    if (done) {
      const xs = kids.map((k) => place.get(k).x);
      place.set(id, {x: (Math.min(...xs) + Math.max(...xs)) / 2, depth});
      continue;
    }
    stack.push([id, depth, true]);
    for (let k = kids.length - 1; k >= 0; k--) stack.push([kids[k], depth + 1, false]);
  }
  return {place, slots: slot};
}

function shapeFor(kind, cx, cy) {
  const r = 16;
  if (kind === "max") return svgElement("polygon", {class: "shape", points: `${cx},${cy - r} ${cx + r},${cy + r * 0.8} ${cx - r},${cy + r * 0.8}`});
  if (kind === "min") return svgElement("polygon", {class: "shape", points: `${cx - r},${cy - r * 0.8} ${cx + r},${cy - r * 0.8} ${cx},${cy + r}`});
  if (kind === "chance") return svgElement("circle", {class: "shape", cx, cy, r});
  return svgElement("rect", {class: "shape", x: cx - 13, y: cy - 13, width: 26, height: 26});
}

function drawGameTree(tree, position, judged) {
  const byId = new Map(tree.nodes.map((n) => [n.id, n]));
  const {place, slots} = treeLayout(tree.nodes, (id) => byId.get(id).children.map((c) => c.child), 0);
  const dx = 56, dy = 86, margin = 30;
  const depth = Math.max(...[...place.values()].map((p) => p.depth));
  const svg = svgElement("svg", {class: "game-tree", width: slots * dx + 2 * margin, height: (depth + 1) * dy + margin});
  const at = (id) => [margin + place.get(id).x * dx + dx / 2, margin + place.get(id).depth * dy];
  const legal = new Set(position.moves.map((m) => m.move));
  for (const node of tree.nodes) {
    for (const edge of node.children) {
      const [x1, y1] = at(node.id), [x2, y2] = at(edge.child);
      svg.append(svgElement("line", {class: "edge", x1, y1, x2, y2}));
      const label = edge.move + (edge.probability ? ` (${edge.probability})` : "");
      svg.append(svgElement("text", {class: "edge-label", x: (x1 + x2) / 2 + 4, y: (y1 + y2) / 2}, label));
    }
  }
  for (const node of tree.nodes) {
    const [cx, cy] = at(node.id);
    const edge = node.id === tree.current ? null :
      byId.get(tree.current).children.find((c) => c.child === node.id);
    const move = edge && legal.has(edge.move) ? edge.move : null;
    const outcome = move ? outcomeOf(judged, move) : "";
    const g = svgElement("g", {class: `node ${node.kind}${node.id === tree.current ? " current" : ""}${move ? " playable " + outcome : ""}`,
                               "data-node": node.id, "data-move": move});
    g.append(shapeFor(node.kind, cx, cy));
    const label = node.kind === "leaf" ? node.value : (node.name || "");
    g.append(svgElement("text", {x: cx, y: cy + 4, "text-anchor": "middle"}, label));
    if (move) {
      const found = judged.get(move);
      if (found) g.append(svgElement("text", {class: "value", x: cx + 19, y: cy + 4}, valueText(found.row)));
      g.append(svgElement("title", {}, moveTitle(judged, move)));
    }
    svg.append(g);
  }
  return svg;
}

// ---- the strong solve ---------------------------------------------------------------------------

let polling = null;

async function startSolve() {
  const answer = await api("/api/solve", {});
  if (answer.ok) watchJob(answer.data);
}

function watchJob(job) {
  page.job = job;
  showJob();
  if (job.state !== "running" || polling) return;
  polling = setInterval(async () => {
    const answer = await api(`/api/jobs/${page.job.id}`);
    if (!answer.ok) return;
    page.job = answer.data;
    showJob();
    if (page.job.state !== "running") {
      clearInterval(polling);
      polling = null;
      page.analyses.clear();
      fetchAnalysis(page.token);  // from the solve, or (failed, cancelled) analysed on its own
    }
  }, 300);
}

function showJob() {
  const job = page.job;
  const text = $("#solve-text");
  $("#solve-cancel").hidden = job.state !== "running";
  $("#solve-start").hidden = job.state !== "cancelled";
  const found = job.positions.toLocaleString("en");
  if (job.state === "running") text.textContent = `solving: ${found} positions found (${job.seconds.toFixed(1)} s)`;
  else if (job.state === "done") text.textContent = `solved: ${found} positions`;
  else if (job.state === "cancelled") text.textContent = "the solve was cancelled: positions are analysed one by one";
  else text.textContent = `not solved whole: ${job.message}`;
  $("#solve-status").dataset.state = job.state;
}

async function cancelSolve() {
  if (!page.job) return;
  const answer = await api(`/api/jobs/${page.job.id}/cancel`, {});
  if (answer.ok) { page.job = answer.data; showJob(); }
}

// ---- the search, step by step ---------------------------------------------------------------

async function runSearch(event) {
  if (event) event.preventDefault();
  const algorithm = $("#algorithm").value;
  const query = movesQuery(page.moves) + (algorithm ? `&algorithm=${algorithm}` : "");
  $("#search-title").textContent = "searching…";
  const answer = await api("/api/explain?" + query);
  if (!answer.ok) {
    page.search = null;
    $("#search-title").textContent = answer.data.message;
    $("#search-tree").textContent = "";
    return;
  }
  page.search = answer.data;
  const search = page.search;
  $("#search-title").textContent = `${search.game}: ${search.title}` + (search.note ? `\n${search.note}` : "");
  $("#step-range").max = Math.max(0, search.steps.length - 1);
  $("#search-summary").textContent = search.complete ?
    `value ${search.value}` + (search.best_move ? `, best move ${search.best_move}` : "") +
    (search.pruned.length ? "; pruned (after the moves that lead there): " +
      search.pruned.map((p) => `${p.after.join(" ")} → ${p.moves.join(", ")}`).join("; ") : "") : "";
  showStep(0);
}

function replay(search, upTo) {
  // the state of each node after steps 0..upTo: seen, window, value, cut
  const seen = new Set(), windows = new Map(), values = new Map(), cut = new Set();
  for (let k = 0; k <= upTo && k < search.steps.length; k++) {
    const step = search.steps[k], node = search.nodes[step.node];
    if (step.kind === "enter") {
      seen.add(step.node);
      windows.set(step.node, [node.alpha, node.beta]);
    } else if (step.kind === "leaf") {
      seen.add(step.node);
      values.set(step.node, step.value);
    } else if (step.kind === "alpha") {
      windows.set(step.node, [step.value, windows.get(step.node)[1]]);
    } else if (step.kind === "beta") {
      windows.set(step.node, [windows.get(step.node)[0], step.value]);
    } else if (step.kind === "cutoff") {
      cut.add(step.node);
    } else if (step.kind === "value") {
      values.set(step.node, step.value);
    }
  }
  return {seen, windows, values, cut};
}

function showStep(k) {
  const search = page.search;
  if (!search || !search.steps.length) return;
  k = Math.max(0, Math.min(k, search.steps.length - 1));
  page.step = k;
  $("#step-range").value = k;
  $("#step-count").textContent = `step ${k + 1} of ${search.steps.length}` +
    (search.total_steps > search.steps.length ? ` (the search has ${search.total_steps})` : "");
  const step = search.steps[k];
  const text = $("#step-text");
  text.textContent = step.text;
  text.className = `step-text ${step.kind}`;
  text.dataset.kind = step.kind;
  text.dataset.node = step.node;
  drawSearch(search, replay(search, k), step.node);
}

function drawSearch(search, state, active) {
  const svg = $("#search-tree");
  svg.textContent = "";
  // the nodes any shown step names, their pruned moves as stubs
  const shown = new Set(search.steps.map((s) => s.node));
  const kids = new Map();
  for (const node of search.nodes) {
    if (node.parent !== null && shown.has(node.id)) {
      if (!kids.has(node.parent)) kids.set(node.parent, []);
      kids.get(node.parent).push(node.id);
    }
  }
  const stubs = new Map(); // "s<parent>:<k>" -> {parent, move}
  for (const node of search.nodes) {
    if (!shown.has(node.id)) continue;
    node.pruned.forEach((move, k) => {
      const id = `s${node.id}:${k}`;
      stubs.set(id, {parent: node.id, move});
      if (!kids.has(node.id)) kids.set(node.id, []);
      kids.get(node.id).push(id);
    });
  }
  const {place, slots} = treeLayout(search.nodes, (id) => kids.get(id) || [], 0);
  const longest = Math.max(4, ...search.nodes.filter((n) => shown.has(n.id) && n.move !== null)
                                            .map((n) => n.move.length));
  const dx = Math.max(64, 7 * longest + 12), dy = 112, margin = 34;
  const depth = Math.max(...[...place.values()].map((p) => p.depth));
  svg.setAttribute("width", slots * dx + 2 * margin);
  svg.setAttribute("height", (depth + 1) * dy + margin);
  const at = (id) => [margin + place.get(id).x * dx + dx / 2, margin + 10 + place.get(id).depth * dy];
  const windows = search.algorithm === "alphabeta";
  for (const [parent, children] of kids) {
    for (const child of children) {
      const [x1, y1] = at(parent), [x2, y2] = at(child);
      const stub = stubs.get(child);
      const node = stub ? null : search.nodes[child];
      const visible = stub ? state.cut.has(parent) : state.seen.has(child);
      const best = node && node.best && search.complete && page.step === search.steps.length - 1;
      svg.append(svgElement("line", {class: `edge${stub ? " pruned" : ""}${visible ? "" : " unseen"}${best ? " best" : ""}`,
                                     x1, y1: y1 + 16, x2, y2: y2 - 16}));
      const label = stub ? stub.move : node.move + (node.probability ? ` (${node.probability})` : "");
      // over the child, where siblings are a full slot apart
      svg.append(svgElement("text", {class: `edge-label${visible ? "" : " unseen"}`, "text-anchor": "middle",
                                     x: x2, y: y2 - 24}, label));
    }
  }
  for (const node of search.nodes) {
    if (!shown.has(node.id) && node.id !== 0) continue;
    const [cx, cy] = at(node.id);
    const kind = node.role === "MAX" ? "max" : node.role === "MIN" ? "min" : node.role === "chance" ? "chance" : "leaf";
    const windowNow = state.windows.get(node.id);
    const value = state.values.get(node.id);
    const g = svgElement("g", {class: `node ${kind}${state.seen.has(node.id) ? "" : " unseen"}${node.id === active ? " active" : ""}`,
                               "data-id": node.id, "data-name": node.name ?? node.move ?? "root",
                               "data-alpha": windowNow ? windowNow[0] : null,
                               "data-beta": windowNow ? windowNow[1] : null,
                               "data-value": value ?? null});
    g.append(shapeFor(kind, cx, cy));
    g.append(svgElement("text", {x: cx, y: cy + 4, "text-anchor": "middle"},
                        kind === "leaf" ? (value ?? "") : (node.name || "")));
    if (kind !== "leaf" && value !== undefined) {
      const bound = node.bound === "upper" ? "≤" : node.bound === "lower" ? "≥" : "";
      g.append(svgElement("text", {class: "value", x: cx + 20, y: cy + (windows ? 10 : 4)}, `= ${bound}${value}`));
    }
    if (windows && kind !== "leaf" && kind !== "chance" && windowNow) {
      g.append(svgElement("text", {class: "window", x: cx + 20, y: cy - 8},
                          `[${windowNow[0]}, ${windowNow[1]}]`));
    }
    svg.append(g);
  }
  const wrap = svg.parentElement;  // keep the step's node in view
  if (wrap && place.has(active)) {
    const [ax, ay] = at(active);
    if (ax < wrap.scrollLeft + 40 || ax > wrap.scrollLeft + wrap.clientWidth - 40) wrap.scrollLeft = ax - wrap.clientWidth / 2;
    if (ay < wrap.scrollTop + 40 || ay > wrap.scrollTop + wrap.clientHeight - 40) wrap.scrollTop = ay - wrap.clientHeight / 2;
  }
  for (const [id, stub] of stubs) {
    const [cx, cy] = at(id);
    const g = svgElement("g", {class: `stub${state.cut.has(stub.parent) ? "" : " unseen"}`, "data-pruned": stub.move});
    g.append(svgElement("rect", {class: "shape", x: cx - 13, y: cy - 13, width: 26, height: 26, fill: "none"}));
    g.append(svgElement("text", {x: cx, y: cy + 30, "text-anchor": "middle"}, "pruned"));
    svg.append(g);
  }
}

// ---- the editor -----------------------------------------------------------------------------

let checkTimer = null;

function escapeHtml(text) {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

function offsetOf(lines, line, column) {
  let offset = 0;
  for (let k = 0; k < line - 1 && k < lines.length; k++) offset += lines[k].length + 1;
  return offset + Math.max(0, column - 1);
}

function renderEditor(diagnostics) {
  page.diagnostics = diagnostics;
  const text = $("#source").value;
  const lines = text.split("\n");
  const marks = new Map();
  for (const d of diagnostics) {
    const previous = marks.get(d.line);
    if (previous !== "error") marks.set(d.line, d.severity);
  }
  $("#gutter").innerHTML = lines.map((_, k) =>
    `<span data-line="${k + 1}"${marks.has(k + 1) ? ` class="${marks.get(k + 1)}"` : ""}>${k + 1}</span>`).join("\n") + "\n";
  // the wavy underlines: the text again, transparent, behind the textarea
  const spans = diagnostics.map((d) => {
    const start = offsetOf(lines, d.line, d.column);
    let end = d.end_line > 0 ? offsetOf(lines, d.end_line, d.end_column) : start + 1;
    if (end <= start) end = start + 1;
    return [start, end, d.severity];
  }).sort((a, b) => a[0] - b[0]);
  let html = "", at = 0;
  for (const [start, end, severity] of spans) {
    if (start < at) continue;
    html += escapeHtml(text.slice(at, start));
    const marked = text.slice(start, end);
    html += `<mark class="${severity}">${escapeHtml(marked.replace(/\n/g, " \n")) || " "}</mark>`;
    at = Math.max(end, start + marked.length);
  }
  html += escapeHtml(text.slice(at)) + "\n";
  $("#backdrop").innerHTML = html;
  syncScroll();
  const list = $("#diagnostics");
  list.textContent = "";
  for (const d of diagnostics) {
    const item = element("li", {class: d.severity, "data-line": d.line, "data-column": d.column,
                                "data-code": d.code});
    item.append(`${d.line}:${d.column}: ${d.severity}: ${d.message}`);
    if (d.hint) item.append(element("span", {class: "hint"}, `hint: ${d.hint}`));
    item.addEventListener("click", () => jumpTo(d.line, d.column));
    list.append(item);
  }
  if (!diagnostics.length) list.append(element("li", {class: "ok"}, "no errors or warnings"));
  const errors = diagnostics.filter((d) => d.severity === "error").length;
  const warnings = diagnostics.length - errors;
  $("#editor-state").textContent = (errors || warnings ? `${errors} error${errors === 1 ? "" : "s"}, ` +
    `${warnings} warning${warnings === 1 ? "" : "s"}` : "the text checks") +
    (page.edited ? " — edited: Reload plays it" : "");
}

function jumpTo(line, column) {
  const area = $("#source");
  const offset = offsetOf(area.value.split("\n"), line, column);
  area.focus();
  area.setSelectionRange(offset, offset);
}

function syncScroll() {
  const area = $("#source");
  $("#backdrop").scrollTop = area.scrollTop;
  $("#backdrop").scrollLeft = area.scrollLeft;
  $("#gutter").scrollTop = area.scrollTop;
}

async function checkSource() {
  const token = ++page.checkToken;
  const answer = await api("/api/check", {source: $("#source").value});
  if (token !== page.checkToken) return;
  if (answer.ok) renderEditor(answer.data.diagnostics);
  else $("#editor-state").textContent = answer.data.message;
}

async function reloadSource() {
  $("#reload-state").textContent = "reloading…";
  const answer = await api("/api/reload", {source: $("#source").value});
  if (!answer.ok) {
    renderEditor(answer.data.diagnostics || []);
    $("#reload-state").textContent = "not reloaded: the game on the board is the last good one\n" +
      (answer.data.diagnostics && answer.data.diagnostics.length ? "" : answer.data.message);
    return;
  }
  page.edited = false;
  page.analyses.clear();
  page.search = null;
  $("#search-tree").textContent = "";
  $("#step-text").textContent = "";
  await loadGame();
  renderEditor([]);
  checkSource();
  $("#reload-state").textContent = `reloaded: ${page.game.game} (version ${page.game.generation})`;
  const moves = page.moves;
  if (!(await go(moves))) await go([]);
  startSolve();
}

// ---- wiring ---------------------------------------------------------------------------------

function wire() {
  // a move is played by clicking anything that names it: a cell, a pit, a row, an outcome, a
  // node of a game tree (their containers listen, so that a redrawn element needs no listener)
  for (const container of [$("#board"), $("#outcomes"), $("#moves tbody")]) {
    container.addEventListener("click", (event) => {
      const target = event.target.closest("[data-move]");
      if (target && container.contains(target) && !target.disabled) play(target.dataset.move);
    });
  }
  $("#undo").addEventListener("click", () => {
    if (!page.moves.length) return;
    go(page.moves.slice(0, -1), {redo: page.redo.concat([page.moves[page.moves.length - 1]])});
  });
  $("#redo").addEventListener("click", () => {
    if (page.redo.length) play(page.redo[page.redo.length - 1]);
  });
  $("#restart").addEventListener("click", () => go(page.game.start || []));  // a database's
  $("#link").addEventListener("click", () => {
    const link = $("#link-text");
    link.value = location.href;
    link.hidden = false;
    link.select();
    if (navigator.clipboard) navigator.clipboard.writeText(location.href).catch(() => {});
  });
  $("#goto").addEventListener("submit", (event) => {
    event.preventDefault();
    go($("#goto-moves").value.split(/\s+/).filter((m) => m));
  });
  $("#roll").addEventListener("click", roll);
  $("#solve-cancel").addEventListener("click", cancelSolve);
  $("#solve-start").addEventListener("click", startSolve);
  for (const tab of document.querySelectorAll(".tabs button")) {
    tab.addEventListener("click", () => {
      for (const other of document.querySelectorAll(".tabs button")) other.classList.toggle("active", other === tab);
      for (const panel of document.querySelectorAll(".tab")) panel.classList.toggle("active", panel.id === `tab-${tab.dataset.tab}`);
      if (tab.dataset.tab === "editor") syncScroll();
    });
  }
  $("#search-form").addEventListener("submit", runSearch);
  $("#step-first").addEventListener("click", () => showStep(0));
  $("#step-prev").addEventListener("click", () => showStep(page.step - 1));
  $("#step-next").addEventListener("click", () => showStep(page.step + 1));
  $("#step-last").addEventListener("click", () => showStep(Infinity));
  $("#step-range").addEventListener("input", (event) => showStep(Number(event.target.value)));
  const area = $("#source");
  area.addEventListener("input", () => {
    page.edited = true;
    $("#reload-state").textContent = "";
    renderEditor(page.diagnostics);  // the last ones found, until the text is checked again
    clearTimeout(checkTimer);
    checkTimer = setTimeout(checkSource, 250);
  });
  area.addEventListener("scroll", syncScroll);
  area.addEventListener("keydown", (event) => {
    if (event.key === "Tab") {  // a tab key indents rather than leaving the editor
      event.preventDefault();
      area.setRangeText("  ", area.selectionStart, area.selectionEnd, "end");
      area.dispatchEvent(new Event("input"));
    }
  });
  $("#reload").addEventListener("click", reloadSource);
  document.addEventListener("keydown", (event) => {  // arrows: undo and redo, off the editor
    if (event.target.closest("input, textarea, select")) return;
    if (event.key === "ArrowLeft") $("#undo").click();
    else if (event.key === "ArrowRight") $("#redo").click();
  });
}

async function start() {
  wire();
  await loadGame();
  checkSource();
  const asked = new URLSearchParams(location.search).get("moves");
  const start = page.game.start || [];  // a database solved from a later position starts there
  const moves = asked ? asked.split(/\s+/).filter((m) => m) : start;
  if (!(await go(moves))) {
    const message = $("#message").textContent;
    await go(start);
    showMessage(`the link's moves could not be played: ${message}`);
  }
  startSolve();
  document.body.dataset.ready = "true";
}

start();
