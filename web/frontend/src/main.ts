// The web table's page: signs in, opens the socket, draws what the server sends and sends
// what the player means. It never decides a rule: the legal moves come from the server.

import { drawBackground, drawHoles, drawPieces, marksFor } from "./board";
import { timeLeft } from "./clock";
import { activityMatches, clientId, inDiscord, signInWithDiscord } from "./discord";
import { showLeiff, showLobby } from "./leiff";
import { dailyShown, puzzleEvents, puzzleRefused, showPuzzle, showPuzzleResult } from "./puzzle";
import {
  candidateMoves,
  clickedMove,
  type Frame,
  type Geometry,
  type PositionFrame,
  type StateFrame,
  type MatchLine,
  type TableFrame,
  type WelcomeFrame,
} from "./protocol";

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

let texts: Record<string, string> = {};
let welcome: WelcomeFrame | null = null;
let socket: WebSocket | null = null;
let retries = 0;
let current: StateFrame | null = null;
let currentTable: TableFrame | null = null; // a Leiff table or its lobby
let geometry: Geometry | null = null;
let pieces: SVGGElement | null = null;
let viewing: PositionFrame | null = null; // a past position of the move list, or null: live
// The ply last asked for and not yet shown: a second tap on Back or Forward before the
// server's answer steps on from it, so two quick taps go two moves, not one.
let askedPly: number | null = null;
let selected: string[] = [];
let showLegal = false;
let clockOffset = 0;
const geometries = new Map<string, Geometry>();

function t(key: string, params: Record<string, string | number> = {}): string {
  let text = texts[key] ?? key;
  for (const [name, value] of Object.entries(params)) text = text.replace(`{${name}}`, String(value));
  return text;
}

function toast(text: string): void {
  const box = $("toast");
  box.textContent = text;
  box.hidden = false;
  window.setTimeout(() => (box.hidden = true), 4000);
}

// ---- signing in and the socket -------------------------------------------------------
async function session(fresh = false): Promise<string> {
  const kept = sessionStorage.getItem("leafbot-session");
  if (kept && !fresh) return kept;
  if (inDiscord()) return discordSession();
  const locale = new URLSearchParams(location.search).get("lang") ?? navigator.language;
  const answer = await fetch("/api/local-session", {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ locale }),
  });
  if (!answer.ok) throw new Error(`sign-in refused: ${answer.status}`);
  const token = ((await answer.json()) as { token: string }).token;
  sessionStorage.setItem("leafbot-session", token);
  return token;
}

// In a Discord Activity: signed in by Discord, and on the channel's match (the one the
// button was pressed on) when there is one, else the channel's and the member's own listed.
async function discordSession(): Promise<string> {
  const signed = await signInWithDiscord(await clientId());
  sessionStorage.setItem("leafbot-session", signed.session);
  document.body.dataset.discordUser = signed.user.id;
  const found = await activityMatches(signed.session);
  const running = found.here.filter((m) => m.status === "running");
  if (running.length === 1 && !/match=\d+/.test(location.hash)) {
    location.hash = `match=${running[0].match}`;
  } else {
    const seen = new Set<number>();
    showMatches([...found.here, ...found.mine].filter((m) => !seen.has(m.match) && seen.add(m.match)));
  }
  return signed.session;
}

function send(message: Record<string, unknown>): void {
  if (socket && socket.readyState === WebSocket.OPEN) socket.send(JSON.stringify(message));
}

async function connect(fresh = false): Promise<void> {
  $("conn").textContent = t(retries ? "reconnecting" : "connecting");
  let token: string;
  try {
    token = await session(fresh);
  } catch {
    window.setTimeout(() => void connect(true), 1000);
    return;
  }
  const scheme = location.protocol === "https:" ? "wss" : "ws";
  const ws = new WebSocket(`${scheme}://${location.host}/ws?session=${encodeURIComponent(token)}`);
  socket = ws;
  let opened = false;
  ws.onopen = () => {
    opened = true;
    retries = 0;
  };
  ws.onmessage = (event) => receive(JSON.parse(event.data as string) as Frame);
  ws.onclose = () => {
    if (socket !== ws) return;
    socket = null;
    askedPly = null; // an answer lost with the socket is never coming
    retries += 1;
    $("conn").textContent = t("reconnecting");
    // a refused socket (the server forgot the session on a restart) signs in again
    window.setTimeout(() => void connect(!opened), Math.min(5000, 250 * 2 ** Math.min(retries, 5)));
  };
}

function receive(frame: Frame): void {
  switch (frame.type) {
    case "welcome":
      welcome = frame;
      texts = frame.texts;
      document.documentElement.lang = frame.language;
      $("conn").textContent = "";
      fillTexts();
      fillLobby();
      route();
      break;
    case "state":
      if (frame.match !== matchInHash()) return;
      if (frame.kind === "leiff" || frame.kind === "lobby") {
        if (currentTable && currentTable.match === frame.match && frame.version < currentTable.version) return;
        currentTable = frame;
        $("table").hidden = true;
        $("leiff").hidden = false;
        $("leiff-to-lobby").hidden = !welcome?.local;
        clockOffset = frame.now * 1000 - Date.now();
        if (frame.kind === "leiff") showLeiff(frame, send, t);
        else showLobby(frame, send);
        tickClocks();
        return;
      }
      if (current && current.match === frame.match && frame.version < current.version) return;
      $("leiff").hidden = true;
      $("table").hidden = false;
      void showState(frame);
      break;
    case "position":
      if (current && frame.match === current.match) {
        if (frame.ply === askedPly) askedPly = null;
        viewing = frame.ply >= current.moves.length ? null : frame;
        render();
      }
      break;
    case "started":
      location.hash = `match=${frame.match}`;
      break;
    case "matches":
      showMatches(frame.matches);
      break;
    case "puzzle":
      if (puzzleInHash()) void showPuzzle(frame, loadGeometry, send);
      break;
    case "puzzle_result":
      showPuzzleResult(frame);
      break;
    case "error":
      toast(frame.text);
      // no puzzle of the day to show (none yet, or answered): back to the start page
      if (puzzleWanted() === "daily" && !dailyShown()) location.hash = "";
      else if (puzzleInHash()) puzzleRefused();
      break;
  }
}

// ---- the lobby -----------------------------------------------------------------------
function fillTexts(): void {
  for (const node of document.querySelectorAll<HTMLElement>("[data-text]")) {
    node.textContent = t(node.dataset.text!);
  }
  document.title = t("title");
  $("title").textContent = t("title");
}

function option(select: HTMLSelectElement, value: string, label: string): void {
  const node = document.createElement("option");
  node.value = value;
  node.textContent = label;
  select.appendChild(node);
}

let chosenGame = "";

// The games as tiles (the name and what it is about, from the catalogues), one chosen.
function chooseGame(name: string): void {
  chosenGame = name;
  for (const tile of document.querySelectorAll<HTMLElement>("#game-tiles .tile")) {
    const on = tile.dataset.game === name;
    tile.classList.toggle("chosen", on);
    tile.setAttribute("aria-checked", String(on));
  }
  fillSizes();
}

// The puzzle's game: any board game, or one (the games that have puzzles: not Leiff's cards)
function fillPuzzleGames(): void {
  const games = $<HTMLSelectElement>("puzzle-game");
  if (!welcome || games.childElementCount) return;
  option(games, "", t("puzzle.any_game"));
  for (const g of welcome.games) if (!g.cards) option(games, g.name, t(`game.${g.name}`));
}

function fillLobby(): void {
  if (!welcome) return;
  fillPuzzleGames();
  const tiles = $("game-tiles");
  const level = $<HTMLSelectElement>("level");
  const opponent = $<HTMLSelectElement>("opponent");
  if (!tiles.childElementCount) {
    for (const g of welcome.games) {
      const tile = document.createElement("button");
      tile.type = "button";
      tile.className = `tile game-${g.name}`;
      tile.dataset.game = g.name;
      tile.setAttribute("role", "radio");
      const badge = document.createElement("span");
      badge.className = "badge";
      const name = document.createElement("strong");
      name.textContent = t(`game.${g.name}`);
      const about = document.createElement("span");
      about.className = "about";
      about.textContent = t(`tagline.${g.name}`);
      tile.append(badge, name, about);
      tile.onclick = () => chooseGame(g.name);
      tiles.appendChild(tile);
    }
    for (const l of welcome.levels) option(level, l, t(`level.${l}`));
    level.value = "normal";
    option(opponent, "bot", t("opponent.bot"));
    option(opponent, "hotseat", t("opponent.hotseat"));
    opponent.onchange = () => ($("level-row").hidden = opponent.value !== "bot");
    $<HTMLFormElement>("new-game").onsubmit = (event) => {
      event.preventDefault();
      send({
        type: "new_game",
        game: chosenGame,
        size: Number($<HTMLSelectElement>("size").value),
        opponent: opponent.value,
        level: level.value,
      });
    };
    chooseGame(welcome.games[0].name);
  }
  fillSizes();
}

function fillSizes(): void {
  const chosen = welcome?.games.find((g) => g.name === chosenGame);
  // Leiff: the number of players (the others are bot seats); nobody shares a hand
  $("size-label").textContent = t(chosen?.cards ? "players" : "size");
  const opponent = $<HTMLSelectElement>("opponent");
  opponent.querySelector<HTMLOptionElement>('option[value="hotseat"]')!.disabled = Boolean(chosen?.cards);
  if (chosen?.cards) opponent.value = "bot";
  $("level-row").hidden = opponent.value !== "bot";
  const size = $<HTMLSelectElement>("size");
  size.replaceChildren();
  for (const s of chosen?.sizes ?? []) option(size, String(s), String(s));
  if (chosen) size.value = String(chosen.defaultSize);
  // each level's name, and its measured strength in this game where the ladder has one
  for (const item of $<HTMLSelectElement>("level").options) {
    const elo = chosen?.strength?.[item.value];
    item.textContent = t(`level.${item.value}`) + (elo ? ` · ${t("level_elo", { elo })}` : "");
  }
}

function showMatches(matches: MatchLine[]): void {
  const list = $("matches");
  list.replaceChildren();
  $("no-matches").hidden = matches.length > 0;
  for (const m of matches) {
    const item = document.createElement("li");
    item.className = "match" + (m.yourTurn ? " your-turn" : "");
    const link = document.createElement("a");
    link.href = `#match=${m.match}`;
    const badge = document.createElement("span");
    badge.className = `badge game-${m.game}`;
    const name = document.createElement("span");
    name.className = "name";
    const title = document.createElement("strong");
    title.textContent = `${t(`game.${m.game}`)} #${m.match}`;
    name.appendChild(title);
    if (m.against) {
      const against = document.createElement("span");
      against.className = "detail";
      against.textContent = m.against;
      name.appendChild(against);
    }
    link.append(badge, name);
    if (m.text) {
      const turn = document.createElement("span");
      turn.className = "turn";
      turn.textContent = m.text;
      link.appendChild(turn);
    }
    item.appendChild(link);
    list.appendChild(item);
  }
}

// ---- routing: #match=ID shows that match, anything else the lobby ----------------------
function matchInHash(): number | null {
  const found = /match=(\d+)/.exec(location.hash);
  return found ? Number(found[1]) : null;
}

function puzzleInHash(): boolean {
  return /^#puzzle\b/.test(location.hash);
}

// #puzzle: any board game's; #puzzle=dalen: Dalen's; #puzzle=daily: the puzzle of the day
function puzzleWanted(): string {
  return /^#puzzle=([a-z]+)/.exec(location.hash)?.[1] ?? "";
}

function askPuzzle(): void {
  const wanted = puzzleWanted();
  const choice = $<HTMLSelectElement>("puzzle-game");
  if (wanted !== "daily") choice.value = wanted;
  if (wanted === "daily") send({ type: "puzzle_daily" });
  else send(wanted ? { type: "puzzle", game: wanted } : { type: "puzzle" });
}

function route(): void {
  const id = matchInHash();
  const puzzle = puzzleInHash();
  $("puzzle").hidden = !puzzle;
  // the start page: the member's games (whose turn each is); a new game only locally
  $("lobby").hidden = id !== null || puzzle;
  $("new-game").hidden = !welcome?.local;
  $("intro").hidden = !welcome?.local;
  if (id === null) {
    $("table").hidden = true;
    $("leiff").hidden = true;
  }
  if (current && current.match !== id) {
    send({ type: "unwatch", match: current.match });
    current = null;
    viewing = null;
  }
  if (currentTable && currentTable.match !== id) {
    send({ type: "unwatch", match: currentTable.match });
    currentTable = null;
  }
  if (id !== null) send({ type: "watch", match: id });
  else if (puzzle) askPuzzle();
  else send({ type: "matches" });
}

window.addEventListener("hashchange", route);

// ---- the table ---------------------------------------------------------------------------
async function loadGeometry(game: string, size: number): Promise<Geometry> {
  const key = `${game}/${size}`;
  let geo = geometries.get(key);
  if (!geo) {
    geo = (await (await fetch(`/api/geometry/${key}`)).json()) as Geometry;
    geometries.set(key, geo);
  }
  return geo;
}

async function showState(frame: StateFrame): Promise<void> {
  const geo = await loadGeometry(frame.game, frame.size);
  if (geo !== geometry) {
    geometry = geo;
    pieces = drawBackground($<HTMLElement>("board") as unknown as SVGSVGElement, geo);
  }
  if (!current || current.match !== frame.match || current.version !== frame.version) {
    selected = [];
    viewing = null;
    askedPly = null;
  }
  current = frame;
  clockOffset = frame.now * 1000 - Date.now();
  render();
}

function candidates(): string[] {
  if (!current || viewing) return [];
  return candidateMoves(current.legal, selected);
}

function render(): void {
  if (!current || !geometry || !pieces) return;
  const frame = current;
  const moves = candidates();
  const depth = selected.length;
  const marks = marksFor(moves, selected, showLegal);
  const stones = viewing ? viewing.stones : frame.stones;
  const last = viewing ? viewing.last : frame.last;
  drawHoles($<HTMLElement>("board") as unknown as SVGSVGElement, geometry, viewing ? viewing.holes : frame.holes);
  drawPieces(pieces, geometry, stones, last, marks);
  // which match and version the board shows (it stays drawn, hidden, on the start page)
  $("board").dataset.match = String(frame.match);
  $("board").dataset.version = String(frame.version);
  $("board").dataset.yourTurn = String(frame.yourTurn && !viewing);

  const players = $("players");
  players.replaceChildren();
  for (const seat of frame.seats) {
    const row = document.createElement("div");
    row.className = "player" + (seat.seat === frame.toMove ? " to-move" : "");
    const swatch = document.createElement("span");
    swatch.className = "swatch";
    swatch.style.background = geometry.colours.stones[seat.colour]?.fill ?? "#888";
    const name = document.createElement("span");
    name.textContent = `${seat.name} (${seat.colourName})` + (seat.bot && seat.level ? ` · ${t(`level.${seat.level}`)}` : "");
    row.append(swatch, name);
    if (seat.seat === frame.toMove && frame.deadline) {
      const clock = document.createElement("span");
      clock.className = "clock";
      clock.dataset.deadline = String(frame.deadline);
      row.appendChild(clock);
    }
    players.appendChild(row);
  }
  tickClocks();
  $("status").textContent =
    frame.statusText + (frame.drawOffer && isRunning(frame) ? ` ${t("draw_offered", { name: frame.drawOffer.name })}` : "");
  const score = viewing ? viewing.score : frame.score; // the score of the position shown
  $("score").textContent = score.length ? `${t("score")}: ${score.join(" · ")}` : "";

  const running = frame.status === "running";
  $("resign").hidden = !running || !frame.seated;
  $("offer-draw").hidden = !running || !frame.seated || frame.vsBot || frame.drawOffer !== null;
  $("accept-draw").hidden = !(running && frame.drawOffer?.toYou);
  $("decline-draw").hidden = !(running && frame.drawOffer?.toYou);
  $("rematch").hidden = running || !frame.seated;
  $("to-lobby").hidden = !welcome?.local;
  if (!running) $("confirm").hidden = true;

  const choice = $("choice");
  choice.replaceChildren();
  if (!viewing) {
    for (const special of frame.special) {
      const button = document.createElement("button");
      button.textContent = special.label;
      button.dataset.move = special.move;
      button.onclick = () => play(special.move);
      choice.appendChild(button);
    }
    if (depth) {
      const hint = document.createElement("span");
      hint.textContent = t("capture_choice");
      choice.appendChild(hint);
      const exact = selected.join("");
      if (frame.legal.includes(exact)) {
        const button = document.createElement("button");
        button.textContent = t("no_capture");
        button.id = "no-capture";
        button.onclick = () => play(exact);
        choice.appendChild(button);
      }
      const cancel = document.createElement("button");
      cancel.textContent = t("cancel");
      cancel.onclick = () => {
        selected = [];
        render();
      };
      choice.appendChild(cancel);
    }
  }
  choice.hidden = !choice.childElementCount;

  const list = $("moves");
  list.replaceChildren();
  const shown = viewing ? viewing.ply : frame.moves.length;
  const ask = (ply: number): void => {
    askedPly = Math.max(0, Math.min(frame.moves.length, ply));
    send({ type: "history", match: frame.match, ply: askedPly });
  };
  frame.moves.forEach((move, i) => {
    const item = document.createElement("li");
    item.textContent = move;
    item.dataset.ply = String(i + 1);
    if (i + 1 === shown) item.className = "current";
    item.onclick = () => ask(i + 1);
    list.appendChild(item);
  });
  $("back").onclick = () => ask((askedPly ?? shown) - 1);
  $("forward").onclick = () => ask((askedPly ?? shown) + 1);
  $("viewing").hidden = !viewing;
  $("viewing").textContent = viewing ? t("viewing", { ply: shown, count: frame.moves.length }) : "";
  $("live").hidden = !viewing;
  $("live").onclick = () => {
    viewing = null;
    askedPly = null;
    render();
  };
}

function isRunning(frame: StateFrame): boolean {
  return frame.status === "running";
}

function tickClocks(): void {
  const now = (Date.now() + clockOffset) / 1000;
  for (const clock of document.querySelectorAll<HTMLElement>(".clock")) {
    clock.textContent = `${t("clock")} ${timeLeft(t, Number(clock.dataset.deadline) - now)}`;
  }
}
window.setInterval(tickClocks, 1000);

function play(move: string): void {
  if (!current) return;
  selected = [];
  send({ type: "move", match: current.match, move, version: current.version });
  render();
}

function clicked(cell: string): void {
  if (!current || viewing || !current.yourTurn) return;
  selected = [...selected, cell];
  const move = clickedMove(current.legal, selected);
  if (move) {
    play(move);
    return;
  }
  if (move === "") selected = [];
  render();
}

function boardEvents(): void {
  const board = $("board");
  board.addEventListener("click", (event) => {
    const cell = (event.target as Element).closest("[data-cell]");
    if (cell) clicked(cell.getAttribute("data-cell")!);
  });
  const show = (on: boolean) => () => {
    if (showLegal !== on) {
      showLegal = on;
      render();
    }
  };
  board.addEventListener("pointerenter", show(true));
  board.addEventListener("pointerdown", show(true));
  board.addEventListener("pointerleave", show(false));
}

function actionEvents(): void {
  const act = (type: string) => () => {
    if (current) send({ type, match: current.match, version: current.version });
  };
  $("resign").onclick = () => ($("confirm").hidden = false);
  $("resign-no").onclick = () => ($("confirm").hidden = true);
  $("resign-yes").onclick = () => {
    $("confirm").hidden = true;
    act("resign")();
  };
  $("offer-draw").onclick = act("offer_draw");
  $("accept-draw").onclick = act("accept_draw");
  $("decline-draw").onclick = act("decline_draw");
  $("rematch").onclick = () => current && send({ type: "rematch", match: current.match });
  $("to-lobby").onclick = () => (location.hash = "");
  $("leiff-to-lobby").onclick = () => (location.hash = "");
  // a puzzle: #puzzle opens the next one at the member's rating (of the game chosen)
  $("puzzle-open").onclick = () => (location.hash = "puzzle");
  $("puzzle-daily").onclick = () => (location.hash = "puzzle=daily");
  const games = $<HTMLSelectElement>("puzzle-game");
  const ofGame = () => (games.value ? `puzzle=${games.value}` : "puzzle");
  games.onchange = () => (location.hash = ofGame());
  $("puzzle-next").onclick = () => {
    if (`#${ofGame()}` === location.hash) askPuzzle();
    else location.hash = ofGame();
  };
  $("puzzle-done").onclick = () => (location.hash = "");
  puzzleEvents();
}

boardEvents();
actionEvents();
void connect();
