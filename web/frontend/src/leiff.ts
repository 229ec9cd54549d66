// A Leiff table: the seats with the cards this player may see (their own hand face up
// where they know it), the piles, the lines, and their actions as buttons. Every action is
// the engine's own string from the server (never made up here); the server judges it.

import type { Card, LeiffAction, LeiffFrame, LobbyFrame } from "./protocol";

export type Send = (message: Record<string, unknown>) => void;

const $ = <T extends HTMLElement>(id: string): T => document.getElementById(id) as T;

function node<K extends keyof HTMLElementTagNameMap>(tag: K, className = "", text = ""): HTMLElementTagNameMap[K] {
  const made = document.createElement(tag);
  if (className) made.className = className;
  if (text) made.textContent = text;
  return made;
}

function cardFace(card: Card | null, extra = ""): HTMLElement {
  const face = node("div", `card ${card ? "up" : "down"} ${extra}`.trim());
  if (card) {
    face.dataset.label = card.label;
    face.appendChild(node("span", "name", card.name));
    if (card.subtitle) face.appendChild(node("span", "subtitle", card.subtitle));
  }
  return face;
}

// The log keeps the lines of the versions shown since the page opened.
const logged = new Map<number, number>(); // match -> newest version logged

function actionButton(frame: LeiffFrame, action: LeiffAction, send: Send, label = action.label): HTMLButtonElement {
  const button = node("button", "action", label);
  button.dataset.action = action.action;
  button.onclick = () => {
    if (action.free) {
      $("leiff-rule").hidden = false;
      $<HTMLInputElement>("rule-text").focus();
      return;
    }
    send({ type: "leiff", match: frame.match, action: action.action, version: frame.handVersion });
  };
  return button;
}

export function showLeiff(frame: LeiffFrame, send: Send, t: (key: string) => string): void {
  $("leiff-round").textContent = frame.round;
  $("leiff-status").textContent = frame.statusText;
  const board = $("leiff-seats");
  board.replaceChildren();
  board.dataset.version = String(frame.version);
  const byCard = new Map<string, LeiffAction[]>();
  const rest: LeiffAction[] = [];
  for (const action of frame.actions) {
    if (action.card && action.beside) {
      const key = action.card.join(".");
      byCard.set(key, [...(byCard.get(key) ?? []), action]);
    } else rest.push(action);
  }
  for (const seat of frame.seats) {
    const box = node("div", "seat" + (seat.you ? " you" : "") + (seat.toAct ? " to-act" : ""));
    box.dataset.seat = String(seat.seat);
    const head = node("div", "seat-head");
    head.appendChild(node("strong", "", seat.name));
    for (const part of [...seat.scores, seat.drinks]) if (part) head.appendChild(node("span", "detail", part));
    // the time left to whoever must act, as on a board (main.ts ticks every .clock)
    if (seat.toAct && frame.deadline && frame.status === "running") {
      const clock = node("span", "clock");
      clock.dataset.deadline = String(frame.deadline);
      head.appendChild(clock);
    }
    box.appendChild(head);
    const hand = node("div", "hand");
    seat.cards.forEach((card, i) => {
      const slot = node("div", "slot");
      slot.dataset.seat = String(seat.seat);
      slot.dataset.slot = String(i + 1);
      slot.appendChild(node("span", "slot-number", String(i + 1)));
      slot.appendChild(cardFace(card));
      for (const action of byCard.get(`${seat.seat}.${i + 1}`) ?? []) {
        slot.appendChild(actionButton(frame, action, send, action.beside ?? action.label));
      }
      hand.appendChild(slot);
    });
    box.appendChild(hand);
    board.appendChild(box);
  }
  const piles = $("leiff-piles");
  piles.replaceChildren();
  const draw = node("div", "pile");
  draw.appendChild(cardFace(null));
  draw.appendChild(node("span", "", frame.words.draw ?? ""));
  const discard = node("div", "pile");
  discard.appendChild(cardFace(frame.discardTop, "discard-top"));
  discard.appendChild(node("span", "", frame.words.discard ?? ""));
  piles.append(draw, discard);
  if (frame.holding) {
    const held = node("div", "pile holding");
    held.appendChild(cardFace(frame.holding.card, "held"));
    const who = frame.seats.find((s) => s.seat === frame.holding?.seat)?.name ?? "";
    held.appendChild(node("span", "", frame.words.holding ?? who));
    piles.appendChild(held);
  }
  $("leiff-notes").textContent = [frame.words.rule, frame.words.immune].filter((w) => w).join(" · ");

  // the other actions: one button each, or one menu per family when a family is large
  const bar = $("leiff-actions");
  bar.replaceChildren();
  const families = new Map<string, LeiffAction[]>();
  for (const action of rest) {
    const key = action.family || action.action;
    families.set(key, [...(families.get(key) ?? []), action]);
  }
  for (const members of families.values()) {
    if (members.length <= 3 || !members[0].menu) {
      for (const action of members) bar.appendChild(actionButton(frame, action, send));
      continue;
    }
    const menu = node("select", "menu");
    const placeholder = node("option", "", members[0].menu);
    placeholder.value = "";
    menu.appendChild(placeholder);
    for (const action of members) {
      const choice = node("option", "", action.label);
      choice.value = action.action;
      menu.appendChild(choice);
    }
    menu.onchange = () => {
      if (menu.value) send({ type: "leiff", match: frame.match, action: menu.value, version: frame.handVersion });
    };
    bar.appendChild(menu);
  }
  bar.hidden = !bar.childElementCount;
  const ruleAction = frame.actions.find((a) => a.free);
  if (!ruleAction) $("leiff-rule").hidden = true;
  $("rule-send").onclick = () => {
    const text = $<HTMLInputElement>("rule-text").value.trim();
    if (text && ruleAction) {
      send({ type: "leiff", match: frame.match, action: `rule ${text}`, version: frame.handVersion });
      $("leiff-rule").hidden = true;
    }
  };
  $("leiff-leave").hidden = !(frame.seated && frame.status === "running");
  $("leiff-leave").onclick = () => send({ type: "resign", match: frame.match, version: frame.version });

  const newest = logged.get(frame.match) ?? -1;
  if (frame.version > newest) {
    logged.set(frame.match, frame.version);
    const log = $("leiff-lines");
    for (const line of frame.lines) log.prepend(node("li", "", line));
    while (log.childElementCount > 40) log.lastElementChild?.remove();
  }
  $("leiff-log-title").textContent = t("leiff.log");
}

export function showLobby(frame: LobbyFrame, send: Send): void {
  $("leiff-round").textContent = "";
  $("leiff-status").textContent = frame.statusText;
  const board = $("leiff-seats");
  board.replaceChildren();
  board.dataset.version = String(frame.version);
  for (const seat of frame.seats) {
    const box = node("div", "seat");
    box.dataset.seat = String(seat.seat);
    box.appendChild(node("strong", "", seat.name));
    board.appendChild(box);
  }
  $("leiff-piles").replaceChildren();
  $("leiff-notes").textContent = "";
  const bar = $("leiff-actions");
  bar.replaceChildren();
  for (const action of frame.actions) {
    const button = node("button", "action", action.label);
    button.dataset.lobby = action.action;
    button.onclick = () => send({ type: "lobby", match: frame.match, action: action.action, version: frame.version });
    bar.appendChild(button);
  }
  bar.hidden = !bar.childElementCount;
  $("leiff-leave").hidden = true;
}
