// The time left on a clock, in the reader's words: the catalogues' duration units (sent in
// the welcome frame, as the bot writes times) for the two largest parts, "47 days 22 h"
// ("47 Tage 22 Std."), "5 h 12 min"; minutes:seconds only in the last hour, where it ticks.

type Texts = (key: string, params?: Record<string, string | number>) => string;

const UNITS: [number, string][] = [
  [86400, "duration.day"],
  [3600, "duration.hour"],
  [60, "duration.minute"],
];

// One unit's count: the catalogue's singular or plural form. Both catalogues' Plural-Forms
// are "n != 1" (English and German), so the page needs no plural rule of its own.
function unit(t: Texts, key: string, count: number): string {
  return t(count === 1 ? key : `${key}.plural`, { count });
}

export function timeLeft(t: Texts, seconds: number): string {
  const left = Math.max(0, Math.round(seconds));
  if (left < 3600) {
    return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, "0")}`;
  }
  const [big, bigKey] = left >= 86400 ? UNITS[0] : UNITS[1];
  const [small, smallKey] = left >= 86400 ? UNITS[1] : UNITS[2];
  const first = Math.floor(left / big);
  const second = Math.floor((left % big) / small);
  const parts = [unit(t, bigKey, first)];
  if (second) parts.push(unit(t, smallKey, second));
  return parts.join(" ");
}
