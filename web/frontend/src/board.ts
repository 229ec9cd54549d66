// The board as SVG, from the server's geometry (the pictures' own cell centres and sizes).

import { moveCells, type Geometry, type Hole, type LastTurn, type SolutionStep } from "./protocol";

const SVG = "http://www.w3.org/2000/svg";

export interface Marks {
  legal: Set<string>; // cells where a move may start (the engine's list)
  targets: Set<string>; // the next cells of a move being composed (a capture, a set-up pair)
  selected: string[]; // the cells chosen so far
  showLegal: boolean; // hover or touch: the legal cells are drawn
}

// The marks while ``selected`` cells are chosen among the candidate ``moves``: where a
// move may start before the first click, the cells that may come next after it.
export function marksFor(moves: string[], selected: string[], showLegal: boolean): Marks {
  const depth = selected.length;
  return {
    legal: new Set(depth ? [] : moves.map((m) => moveCells(m)[0])),
    targets: new Set(depth ? moves.map((m) => moveCells(m)[depth]).filter((c) => c) : []),
    selected,
    showLegal,
  };
}

function el<K extends keyof SVGElementTagNameMap>(
  name: K,
  attrs: Record<string, string | number>,
  parent?: Element,
): SVGElementTagNameMap[K] {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (parent) parent.appendChild(node);
  return node;
}

function hexagon(geo: Geometry, x: number, y: number, scale = 1): string {
  const r = geo.radius * scale;
  const tall = r * geo.squash;
  const corners: string[] = [];
  for (let k = 0; k < 6; k++) {
    const a = (Math.PI / 3) * k;
    corners.push(`${(x + r * Math.cos(a)).toFixed(1)},${(y + tall * Math.sin(a)).toFixed(1)}`);
  }
  return corners.join(" ");
}

function cross(geo: Geometry, x: number, y: number, colour: string, parent: Element): void {
  const d = geo.stoneRadius * 0.7;
  const width = Math.max(2, geo.stoneRadius * 0.22);
  el("line", { x1: x - d, y1: y - d, x2: x + d, y2: y + d, stroke: colour, "stroke-width": width, "stroke-linecap": "round" }, parent);
  el("line", { x1: x - d, y1: y + d, x2: x + d, y2: y - d, stroke: colour, "stroke-width": width, "stroke-linecap": "round" }, parent);
}

// The static part of a board (cells or Les's points and lines, the rim's coordinates),
// drawn once per geometry; the stones and marks are redrawn on every frame.
export function drawBackground(svg: SVGSVGElement, geo: Geometry): SVGGElement {
  svg.replaceChildren();
  svg.setAttribute("viewBox", `0 0 ${geo.width} ${geo.height}`);
  const c = geo.colours;
  defineAreas(svg, geo);
  el("rect", { x: 0, y: 0, width: geo.width, height: geo.height, fill: c.background }, svg);
  // owned holes lie under the lines and points (the grid shows through their tint)
  el("g", { class: "holes" }, svg);
  const base = el("g", { class: "background" }, svg);
  if (geo.points) {
    geo.cells.forEach((cell, i) => {
      for (const j of geo.neighbours[i]) {
        if (j > i) {
          const other = geo.cells[j];
          el("line", { x1: cell.x, y1: cell.y, x2: other.x, y2: other.y, stroke: c.line, "stroke-width": 1.5 }, base);
        }
      }
    });
  }
  for (const cell of geo.cells) {
    if (geo.points) {
      el("circle", { cx: cell.x, cy: cell.y, r: Math.max(2, geo.radius * 0.12), fill: c.point }, base);
    } else {
      el("polygon", { points: hexagon(geo, cell.x, cell.y), fill: c.cell, stroke: c.cellEdge, "stroke-width": 1.5 }, base);
    }
  }
  for (const label of geo.rim) {
    const text = el("text", { x: label.x, y: label.y, fill: c.label, "font-size": geo.rimSize, "text-anchor": "middle", "dominant-baseline": "middle", "font-family": "sans-serif" }, base);
    text.textContent = label.text;
  }
  return el("g", { class: "pieces" }, svg);
}

// The second colour's areas are striped (the pictures' diagonal stripes), the first
// colour's a flat tint: hue, lightness and texture differ, so the owner reads at a glance
// without colour vision too. Les's holes are clipped to its plate, as in the pictures.
function defineAreas(svg: SVGSVGElement, geo: Geometry): void {
  const defs = el("defs", {}, svg);
  const period = Math.max(6, Math.round(geo.radius * 0.5));
  const stripes = el("pattern", { id: "stripes", patternUnits: "userSpaceOnUse", width: period, height: period, patternTransform: "rotate(45)" }, defs);
  el("rect", { x: 0, y: 0, width: period * 0.45, height: period, fill: geo.colours.loop[1] }, stripes);
  if (geo.plate) {
    const clip = el("clipPath", { id: "plate" }, defs);
    el("polygon", { points: geo.plate.map(([x, y]) => `${x},${y}`).join(" ") }, clip);
  }
}

// Les's owned holes: each empty point's own hexagon, tinted in its owner's colour.
export function drawHoles(svg: SVGSVGElement, geo: Geometry, holes: Hole[]): void {
  const layer = svg.querySelector("g.holes");
  if (!layer) return;
  layer.replaceChildren();
  const first = Object.keys(geo.colours.stones)[0];
  const at = new Map(geo.cells.map((cell) => [cell.name, cell]));
  for (const hole of holes) {
    const mine = hole.owner === first;
    const group = el("g", {
      class: `hole hole-${hole.owner}`,
      "data-owner": hole.owner,
      fill: mine ? geo.colours.loop[0] : "url(#stripes)",
      opacity: geo.colours.areaOpacity[mine ? 0 : 1],
      ...(geo.plate ? { "clip-path": "url(#plate)" } : {}),
    }, layer);
    for (const name of hole.cells) {
      const cell = at.get(name);
      if (cell) el("polygon", { points: hexagon(geo, cell.x, cell.y, 1.02), "data-hole-cell": name }, group);
    }
  }
}

export function drawPieces(
  layer: SVGGElement,
  geo: Geometry,
  stones: Record<string, string>,
  last: LastTurn | null,
  marks: Marks,
): void {
  layer.replaceChildren();
  const c = geo.colours;
  const at = new Map(geo.cells.map((cell) => [cell.name, cell]));
  const placed = new Set(last?.placed ?? []);
  const flipped = new Set(last?.flipped ?? []);
  if (last) {
    last.loops.forEach((loop, n) => {
      const points = loop.map((name) => at.get(name)).filter((cell) => cell !== undefined);
      if (points.length > 1) {
        const path = points.map((p) => `${p!.x},${p!.y}`).join(" ");
        el("polygon", { points: path, fill: "none", stroke: c.loop[n % 2], "stroke-width": Math.max(3, geo.stoneRadius * 0.3), "stroke-linejoin": "round", class: "loop" }, layer);
      }
    });
  }
  for (const cell of geo.cells) {
    const group = el("g", { "data-cell": cell.name, class: "cell" }, layer);
    // the whole cell answers a touch, not only its stone
    el("polygon", { points: hexagon(geo, cell.x, cell.y, geo.points ? 0.8 : 1), fill: "transparent", class: "hit" }, group);
    const colour = stones[cell.name];
    if (colour) {
      const stone = c.stones[colour];
      el("circle", { cx: cell.x, cy: cell.y, r: geo.stoneRadius, fill: stone.fill, stroke: stone.edge, "stroke-width": 2, class: `stone stone-${colour}` }, group);
      if (flipped.has(cell.name)) {
        el("circle", { cx: cell.x, cy: cell.y, r: geo.stoneRadius * 0.35, fill: "none", stroke: stone.edge, "stroke-width": 2, class: "flipped" }, group);
      }
      group.setAttribute("data-stone", colour);
    }
    if (placed.has(cell.name)) {
      el("circle", { cx: cell.x, cy: cell.y, r: geo.stoneRadius + 4, fill: "none", stroke: c.placed, "stroke-width": 3, class: "last" }, group);
    }
    if (last?.captured.includes(cell.name)) cross(geo, cell.x, cell.y, c.captured, group);
    if (last?.removed.includes(cell.name)) cross(geo, cell.x, cell.y, c.removed, group);
    if (marks.legal.has(cell.name)) {
      group.classList.add("legal");
      if (marks.showLegal) {
        el("circle", { cx: cell.x, cy: cell.y, r: geo.stoneRadius * 0.3, fill: c.placed, opacity: 0.75, class: "legal-dot" }, group);
      }
    }
    if (marks.targets.has(cell.name)) {
      group.classList.add("target");
      el("circle", { cx: cell.x, cy: cell.y, r: geo.stoneRadius + 2, fill: "none", stroke: c.captured, "stroke-width": 3, "stroke-dasharray": "5 4", class: "target-ring" }, group);
    }
    if (marks.selected.includes(cell.name)) {
      group.classList.add("selected");
      el("circle", { cx: cell.x, cy: cell.y, r: geo.stoneRadius * 0.5, fill: c.placed, class: "selected-dot" }, group);
    }
  }
}

// A puzzle's solution line over the position: each step's stones as numbered ghost stones in
// the mover's colour (1, 2, 3 in order), what a step captured or removed crossed, what it
// turned ringed; a wrong answer's cells in a dashed ring. Numbers stay readable at 360 px.
export function drawLine(
  layer: SVGGElement,
  geo: Geometry,
  steps: SolutionStep[],
  answer: string[],
): void {
  const c = geo.colours;
  const at = new Map(geo.cells.map((cell) => [cell.name, cell]));
  const colours = Object.keys(c.stones);
  for (const name of answer) {
    const cell = at.get(name);
    if (!cell) continue;
    el("circle", { cx: cell.x, cy: cell.y, r: geo.stoneRadius + 5, fill: "none", stroke: c.captured, "stroke-width": 3, "stroke-dasharray": "4 3", class: "answer", "data-answer": name }, layer);
  }
  steps.forEach((step, i) => {
    const stone = c.stones[step.colour];
    const other = c.stones[colours.find((colour) => colour !== step.colour) ?? step.colour];
    for (const name of step.placed) {
      const cell = at.get(name);
      if (!cell || !stone) continue;
      const group = el("g", { class: "step", "data-step": i + 1, "data-step-cell": name }, layer);
      el("circle", { cx: cell.x, cy: cell.y, r: geo.stoneRadius, fill: stone.fill, stroke: c.placed, "stroke-width": 3, opacity: 0.9 }, group);
      const label = el("text", { x: cell.x, y: cell.y, fill: other?.fill ?? "#fff", stroke: stone.edge, "stroke-width": 0.5, "font-size": Math.max(12, geo.stoneRadius * 1.15), "font-weight": "bold", "text-anchor": "middle", "dominant-baseline": "central", "font-family": "sans-serif" }, group);
      label.textContent = String(i + 1);
    }
    for (const name of [...step.captured, ...step.removed]) {
      const cell = at.get(name);
      if (cell) cross(geo, cell.x, cell.y, c.captured, el("g", { class: "step-taken", "data-step": i + 1 }, layer));
    }
    for (const name of step.flipped) {
      const cell = at.get(name);
      if (cell) el("circle", { cx: cell.x, cy: cell.y, r: geo.stoneRadius * 0.55, fill: "none", stroke: stone?.fill ?? c.placed, "stroke-width": 3, class: "step-flipped", "data-step": i + 1 }, layer);
    }
  });
}
