// A puzzle at the web table (#puzzle): the position drawn as a match's board, the winning
// move clicked (the legal moves are the engine's, sent by the server), then the verdict,
// the solution line drawn on the board and the member's new rating. No rule is decided here.

import { drawBackground, drawHoles, drawLine, drawPieces, marksFor } from "./board";
import {
  candidateMoves,
  clickedMove,
  moveCells,
  type Geometry,
  type PuzzleFrame,
  type PuzzleResultFrame,
} from "./protocol";

type Send = (message: Record<string, unknown>) => void;
type Load = (game: string, size: number) => Promise<Geometry>;

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

let shown: PuzzleFrame | null = null;
let result: PuzzleResultFrame | null = null;
let geometry: Geometry | null = null;
let pieces: SVGGElement | null = null;
let selected: string[] = [];
let sent = false;
let send: Send = () => undefined;

function board(): SVGSVGElement {
  return $<HTMLElement>("puzzle-board") as unknown as SVGSVGElement;
}

export async function showPuzzle(frame: PuzzleFrame, load: Load, sender: Send): Promise<void> {
  send = sender;
  const geo = await load(frame.game, frame.size);
  if (geo !== geometry) {
    geometry = geo;
    pieces = drawBackground(board(), geo);
  }
  shown = frame;
  result = null;
  selected = [];
  sent = false;
  render();
}

export function showPuzzleResult(frame: PuzzleResultFrame): void {
  if (!shown || frame.puzzle !== shown.puzzle) return;
  result = frame;
  render();
}

// Whether the puzzle of the day is on the board (a refusal before it came: none today).
export function dailyShown(): boolean {
  return shown?.daily ?? false;
}

// An answer refused (the puzzle was answered elsewhere, or an hour passed): clicks again.
export function puzzleRefused(): void {
  sent = false;
  selected = [];
  render();
}

function candidates(): string[] {
  if (!shown || result || sent) return [];
  return candidateMoves(shown.legal, selected);
}

function render(): void {
  if (!shown || !geometry || !pieces) return;
  const moves = candidates();
  const depth = selected.length;
  const marks = marksFor(moves, selected, !result);
  drawHoles(board(), geometry, shown.holes);
  drawPieces(pieces, geometry, shown.stones, null, marks);
  if (result) {
    drawLine(pieces, geometry, result.steps, result.solved ? [] : moveCells(result.move));
  }
  const box = board();
  box.dataset.puzzle = String(shown.puzzle);
  box.dataset.game = shown.game;
  box.dataset.toMove = shown.toMove;
  box.dataset.answered = String(result !== null);
  box.dataset.daily = String(shown.daily);
  // the puzzle of the day is the day's, whatever game is chosen
  $("puzzle-game-row").hidden = shown.daily;
  const lines = $("puzzle-lines");
  lines.replaceChildren(
    ...shown.lines.map((text) => {
      const line = document.createElement("p");
      line.textContent = text;
      return line;
    }),
  );
  const verdict = $("puzzle-result");
  verdict.replaceChildren(
    ...(result?.lines ?? []).map((text) => {
      const line = document.createElement("p");
      line.textContent = text;
      return line;
    }),
  );
  verdict.className = result ? (result.solved ? "right" : "wrong") : "";
  verdict.hidden = !result;
  $("puzzle-cancel").hidden = !depth;
  // a move that may go on (a capture) or stop here: stopping is a button
  $("puzzle-plain").hidden = !(depth && shown.legal.includes(selected.join("")));
}

function answer(move: string): void {
  if (!shown) return;
  sent = true;
  selected = [];
  send({ type: "puzzle_answer", puzzle: shown.puzzle, move });
  render();
}

function clicked(cell: string): void {
  if (!shown || result || sent) return;
  selected = [...selected, cell];
  const move = clickedMove(shown.legal, selected);
  if (move) {
    answer(move);
    return;
  }
  if (move === "") selected = [];
  render();
}

export function puzzleEvents(): void {
  board().addEventListener("click", (event) => {
    const cell = (event.target as Element).closest("[data-cell]");
    if (cell) clicked(cell.getAttribute("data-cell")!);
  });
  $("puzzle-cancel").onclick = () => {
    selected = [];
    render();
  };
  $("puzzle-plain").onclick = () => answer(selected.join(""));
}
