// The frames the server sends and the messages the page sends (docs/web.md, "Protocol").

export interface Cell {
  name: string;
  x: number;
  y: number;
}

export interface Geometry {
  game: string;
  size: number;
  points: boolean;
  width: number;
  height: number;
  radius: number;
  squash: number;
  stoneRadius: number;
  cells: Cell[];
  neighbours: number[][];
  rim: { text: string; x: number; y: number }[];
  rimSize: number;
  plate: number[][] | null; // Les's hexagonal plate (its holes are shaded inside it)
  colours: {
    background: string;
    cell: string;
    cellEdge: string;
    line: string;
    point: string;
    label: string;
    placed: string;
    captured: string;
    removed: string;
    loop: [string, string];
    areaOpacity: [number, number];
    stones: Record<string, { fill: string; edge: string }>;
  };
}

export interface LastTurn {
  colour: string;
  move: string;
  placed: string[];
  captured: string[];
  flipped: string[];
  removed: string[];
  loops: string[][];
}

// An owned hole of Les: its owner's colour and its empty cells (shaded as the pictures do).
export interface Hole {
  owner: string;
  cells: string[];
}

export interface Seat {
  seat: number;
  name: string;
  colour: string;
  colourName: string;
  bot: boolean;
  level: string | null;
  you: boolean;
}

export interface StateFrame {
  type: "state";
  kind: "board";
  match: number;
  version: number;
  game: string;
  size: number;
  status: string;
  statusText: string;
  seats: Seat[];
  stones: Record<string, string>;
  last: LastTurn | null;
  holes: Hole[];
  toMove: number | null;
  yourTurn: boolean;
  legal: string[];
  special: { move: string; label: string }[];
  moves: string[];
  score: string[];
  deadline: number | null;
  now: number;
  drawOffer: { by: number; name: string; toYou: boolean } | null;
  seated: boolean;
  vsBot: boolean;
}

export interface PositionFrame {
  type: "position";
  match: number;
  ply: number;
  stones: Record<string, string>;
  last: LastTurn | null;
  holes: Hole[];
  score: string[]; // the score after those moves, as the state frame words it
}

export interface WelcomeFrame {
  type: "welcome";
  user: { id: number; name: string };
  language: string;
  texts: Record<string, string>;
  local: boolean;
  levels: string[];
  // strength: each measured level's Elo in that game (board games only)
  games: {
    name: string;
    sizes: number[];
    defaultSize: number;
    cards?: boolean;
    strength?: Record<string, number>;
  }[];
}

// Leiff: a card the viewer may see (null: face down), a seat at the table, an action.
export interface Card {
  label: string;
  name: string;
  subtitle: string | null;
}

export interface LeiffSeat {
  seat: number;
  name: string;
  bot: boolean;
  you: boolean;
  cards: (Card | null)[];
  scores: string[];
  drinks: string;
  immune: boolean;
  toAct: boolean;
}

export interface LeiffAction {
  action: string; // the engine's action string, sent back as it is
  label: string;
  family: string;
  menu: string;
  card: [number, number] | null; // the card it is about: [seat, slot]
  beside: string | null; // its short label beside that card
  free: boolean; // the Klatschtante's rule: typed text follows
}

export interface LeiffFrame {
  type: "state";
  kind: "leiff";
  match: number;
  version: number;
  game: string;
  status: string;
  statusText: string;
  round: string;
  seats: LeiffSeat[];
  you: number | null;
  drawCount: number;
  discardTop: Card | null;
  holding: { seat: number | null; source: string | null; card: Card | null } | null;
  rule: string | null;
  words: Record<string, string>;
  actions: LeiffAction[];
  handVersion: number | null;
  lines: string[];
  deadline: number | null;
  now: number;
  seated: boolean;
}

export interface LobbyFrame {
  type: "state";
  kind: "lobby";
  match: number;
  version: number;
  game: string;
  status: string;
  statusText: string;
  seats: { seat: number; name: string; bot: boolean }[];
  actions: { action: string; label: string }[];
  seated: boolean;
  now: number;
}

export type TableFrame = LeiffFrame | LobbyFrame;

// A puzzle (issue 37): the position from its stones, the engine's legal moves, its lines.
export interface PuzzleFrame {
  type: "puzzle";
  puzzle: number;
  game: string;
  size: number;
  stones: Record<string, string>;
  holes: Hole[];
  toMove: string;
  toMoveName: string;
  legal: string[];
  lines: string[];
  daily: boolean; // the server's puzzle of the day
}

// One move of a puzzle's solution line, played out by the engine.
export interface SolutionStep {
  move: string;
  colour: string;
  placed: string[];
  captured: string[];
  flipped: string[];
  removed: string[];
}

// The verdict on an answer: right or wrong in words, the solution to draw, the rating after.
export interface PuzzleResultFrame {
  type: "puzzle_result";
  puzzle: number;
  solved: boolean;
  move: string;
  solution: string[];
  steps: SolutionStep[];
  lines: string[];
  rating: number;
  streak: number;
}

export type Frame =
  | WelcomeFrame
  | StateFrame
  | TableFrame
  | PositionFrame
  | PuzzleFrame
  | PuzzleResultFrame
  | { type: "started"; match: number }
  | { type: "error"; text: string; match?: number | null }
  | { type: "matches"; matches: MatchLine[] };

// One of the member's games on the start page: whose turn it is, in words.
export interface MatchLine {
  match: number;
  game: string;
  status: string;
  yourTurn?: boolean;
  against?: string;
  text?: string;
}

// A move's cells in order: "b2xa1" (a capture), "a1+c7" (two set-up stones), "f6".
export function moveCells(move: string): string[] {
  return move.split(/[x+]/);
}

export function isCellMove(move: string): boolean {
  return /^[a-z]+\d+([x+][a-z]+\d+)*$/.test(move);
}

// The legal moves whose first cells are the ones clicked so far (``selected``).
export function candidateMoves(legal: string[], selected: string[]): string[] {
  return legal.filter((move) => {
    if (!isCellMove(move)) return false;
    const cells = moveCells(move);
    return selected.every((cell, i) => cells[i] === cell);
  });
}

// What the cells clicked so far choose (a board's move, a puzzle's answer): the move once
// they can mean only it, null while a further cell is needed, "" when no legal move starts
// so (the selection starts over).
export function clickedMove(legal: string[], selected: string[]): string | null {
  const moves = candidateMoves(legal, selected);
  const exact = selected.join("");
  if (!moves.length) return "";
  if (moves.length === 1 && moveCells(moves[0]).length === selected.length) return moves[0];
  // every candidate is the move itself written another way: play it
  const same = moves.every((m) => m === exact || moveCells(m).length === selected.length);
  return same && legal.includes(exact) ? exact : null;
}
